// Text as one line (src/shared/one-line.ts) and a metadata field's value (src/shared/metadata.ts),
// as the page's and the PDF's metadata, the main-content rules and a PDF's refusal write them.
import { describe, expect, it } from 'vitest';
import { metadataValue } from '../../../src/shared/metadata.js';
import { oneLine } from '../../../src/shared/one-line.js';

describe('oneLine', () => {
  it('makes every run of white space one space, any Unicode space or break, and leaves none at the ends', () => {
    expect(oneLine('  Clymer\n\tworkshop \u00a0 manual\u2003review\r\n')).toBe('Clymer workshop manual review');
  });

  it('leaves every other character as it is', () => {
    expect(oneLine('a_b—c·d\u200be')).toBe('a_b—c·d\u200be');
    expect(oneLine(' \n ')).toBe('');
  });
});

describe('metadataValue', () => {
  it('is a string as one line', () => {
    expect(metadataValue(' The\n title ')).toBe('The title');
  });

  it('is null for what is not a string, and for a string of white space', () => {
    expect([metadataValue(undefined), metadataValue(null), metadataValue(42), metadataValue({ name: 'x' }), metadataValue(' \n ')]).toEqual(
      [null, null, null, null, null],
    );
  });
});
