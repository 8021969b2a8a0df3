import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../../src/utf8.js';

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
