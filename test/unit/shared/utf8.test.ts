import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length, wellFormed } from '../../../src/shared/utf8.js';

const encoded = (text: string) => new TextEncoder().encode(text).byteLength;

describe('utf8Length', () => {
  it.each(['', 'ascii', 'é', '€', '日本語', '😀', 'a😀b', '\ud800', '\udc00x', '\ud800\ud800\udc00'])(
    'counts %j as TextEncoder does',
    (text) => {
      expect(utf8Length(text)).toBe(encoded(text));
    },
  );

  it('counts any string, lone surrogates included, as TextEncoder does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => utf8Length(text) === encoded(text)),
      { numRuns: 500, seed: 7 },
    );
  });
});

describe('wellFormed', () => {
  it.each([
    ['a\ud800b', 'a\ufffdb'],
    ['a\udc00b', 'a\ufffdb'],
    ['\udc00\ud800', '\ufffd\ufffd'],
    ['\ud800\ud800\udc00', '\ufffd\ud800\udc00'],
    ['😀 é', '😀 é'],
  ])('turns %j into %j', (text, expected) => {
    expect(wellFormed(text)).toBe(expected);
  });

  it('gives what TextEncoder and a strict TextDecoder round-trip, for any string', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const fixed = wellFormed(text);
        return (
          strict.decode(new TextEncoder().encode(fixed)) === fixed && new TextDecoder().decode(new TextEncoder().encode(text)) === fixed
        );
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});
