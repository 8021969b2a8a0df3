// Words broken by a hyphen at a line's end (text.ts): every hyphen form rejoins a word broken in two,
// a compound's hyphen stays, dashes and hyphens before a capital or a digit are not breaks.
import { describe, expect, it } from 'vitest';
import { convertPdf } from '../../../src/pdf/index';
import { appendLine, hyphenJoin } from '../../../src/pdf/text';
import type { Inline } from '../../../src/pdf/model';
import { buildPdf, type TextRun } from './build-pdf';

/** One paragraph of 12 pt lines, 15 pt apart. */
function paragraph(texts: string[]): TextRun[] {
  return texts.map((text, i) => ({ x: 72, y: 130 + i * 15, size: 12, text }));
}

async function markdownOf(texts: string[]): Promise<string> {
  return (await convertPdf(buildPdf({ pages: [{ runs: paragraph(texts) }] }), { maxPages: 5 })).markdown;
}

function joined(first: string, second: string): string {
  const content: Inline[] = [{ text: first, href: null }];
  appendLine(content, [{ text: second, href: null }]);
  return content.map((p) => p.text).join('');
}

describe('a PDF paragraph broken by a hyphen at a line end', () => {
  it('rejoins a word broken with U+2010 HYPHEN, as Chromium prints it', async () => {
    expect(await markdownOf(['The guide covers the international\u2010', 'ization of the interface and its texts.'])).toBe(
      'The guide covers the internationalization of the interface and its texts.\n',
    );
  });

  it('rejoins a word broken with a hyphen-minus', async () => {
    expect(await markdownOf(['The guide covers the international-', 'ization of the interface and its texts.'])).toBe(
      'The guide covers the internationalization of the interface and its texts.\n',
    );
  });

  it("keeps a compound's hyphen, broken after its first part or a later one, with no space", async () => {
    expect(await markdownOf(['The lab built a state-', 'of-the-art telescope for the survey.'])).toBe(
      'The lab built a state-of-the-art telescope for the survey.\n',
    );
    expect(await markdownOf(['The lab built a state-of-the\u2010', 'art telescope for the survey.'])).toBe(
      'The lab built a state-of-the\u2010art telescope for the survey.\n',
    );
  });

  it('keeps a hyphen before a capital or a digit, with no space', async () => {
    expect(await markdownOf(['The museum shows pre-', 'Columbian gold and silver work.'])).toBe(
      'The museum shows pre-Columbian gold and silver work.\n',
    );
    expect(await markdownOf(['The ward treated COVID\u2010', '19 patients through the winter.'])).toBe(
      'The ward treated COVID\u201019 patients through the winter.\n',
    );
  });

  it('leaves an en dash at the line end as it is: a range, not a broken word', async () => {
    expect(await markdownOf(['The records cover the years 1990\u2013', '2000 and a few after them.'])).toBe(
      'The records cover the years 1990\u2013 2000 and a few after them.\n',
    );
    expect(await markdownOf(['The road runs from north\u2013', 'south across the whole island.'])).toBe(
      'The road runs from north\u2013 south across the whole island.\n',
    );
  });
});

describe('hyphenJoin and appendLine', () => {
  it('always drops a soft hyphen, whatever follows', () => {
    expect(joined('the inter\u00ad', 'national office')).toBe('the international office');
    expect(joined('the Mac\u00ad', 'Donald clan')).toBe('the MacDonald clan');
    expect(hyphenJoin('state-of', '\u00ad', 'the-art')).toBe('drop');
  });

  it('drops U+2010 and U+002D only inside a word broken in two', () => {
    for (const hyphen of ['-', '\u2010']) {
      expect(hyphenJoin('the hyphen', hyphen, 'ated word')).toBe('drop');
      expect(hyphenJoin('a state', hyphen, 'of-the-art view')).toBe('keep');
      expect(hyphenJoin('a state-of-the', hyphen, 'art view')).toBe('keep');
      expect(hyphenJoin('the pre', hyphen, 'Columbian era')).toBe('keep');
      expect(hyphenJoin('in COVID', hyphen, '19 cases')).toBe('keep');
    }
  });

  it('never breaks at a non-breaking hyphen', () => {
    expect(hyphenJoin('the hyphen', '\u2011', 'ated word')).toBe('keep');
    expect(joined('a well\u2011', 'known name')).toBe('a well\u2011known name');
  });

  it('is a space after a hyphen that follows no letter, none after an em dash', () => {
    expect(joined('pages 12-', '15 of the book')).toBe('pages 12- 15 of the book');
    expect(joined('the answer\u2014', 'or so it seemed')).toBe('the answer\u2014or so it seemed');
  });
});
