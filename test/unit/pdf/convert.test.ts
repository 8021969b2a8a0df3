import { describe, expect, it } from 'vitest';
import { convertPdf, PdfRefused } from '../../../src/pdf/index';
import { buildPdf, type TextRun } from './build-pdf';

/** Lines of one paragraph: 12 pt, 15 pt apart, from `y` down. */
function lines(x: number, y: number, texts: string[], size = 12, pitch = 15): TextRun[] {
  return texts.map((text, i) => ({ x, y: y + i * pitch, size, text }));
}

async function markdownOf(spec: Parameters<typeof buildPdf>[0], maxPages = 50): Promise<string> {
  return (await convertPdf(buildPdf(spec), { maxPages })).markdown;
}

async function refusal(bytes: Uint8Array): Promise<PdfRefused> {
  try {
    await convertPdf(bytes, { maxPages: 10 });
  } catch (error) {
    if (error instanceof PdfRefused) return error;
    throw error;
  }
  throw new Error('converted');
}

describe('convertPdf', () => {
  it('reads a heading and paragraphs, joining lines and rejoining a hyphenated word', async () => {
    const doc = await convertPdf(
      buildPdf({
        pages: [
          {
            runs: [
              { x: 72, y: 90, size: 24, text: 'A Small Report' },
              ...lines(72, 130, ['This first paragraph runs over two lines of text and has a hyphen-', 'ated word that is joined again.']),
              ...lines(72, 180, ['A second paragraph follows after a gap.']),
            ],
          },
        ],
        info: { Title: 'Small Report', Author: 'Ada Lovelace', CreationDate: "D:20240102030405+01'00'" },
        lang: 'en-GB',
      }),
      { maxPages: 10 },
    );
    expect(doc).toEqual({
      markdown:
        '# A Small Report\n\nThis first paragraph runs over two lines of text and has a hyphenated word that is joined again.\n\nA second paragraph follows after a gap.\n',
      html:
        '<!DOCTYPE html><html><head><title>Small Report</title></head><body><h1>A Small Report</h1>\n' +
        '<p>This first paragraph runs over two lines of text and has a hyphenated word that is joined again.</p>\n' +
        '<p>A second paragraph follows after a gap.</p></body></html>',
      pages: { converted: 1, total: 1 },
      metadata: { title: 'Small Report', author: 'Ada Lovelace', language: 'en-GB', published_time: '2024-01-02T02:04:05.000Z' },
    });
  });

  it('gives null metadata when the PDF carries none, and takes the html title from the first heading', async () => {
    const body = ['Notes taken during the week, kept short and plain.'];
    const doc = await convertPdf(
      buildPdf({ pages: [{ runs: [{ x: 72, y: 90, size: 20, text: 'Untitled Notes' }, ...lines(72, 130, body)] }] }),
      {
        maxPages: 10,
      },
    );
    expect(doc.metadata).toEqual({ title: null, author: null, language: null, published_time: null });
    expect(doc.html).toBe(
      '<!DOCTYPE html><html><head><title>Untitled Notes</title></head><body><h1>Untitled Notes</h1>\n<p>Notes taken during the week, kept short and plain.</p></body></html>',
    );
  });

  it('reads two columns column by column', async () => {
    const left = [
      'The left column starts the article and its',
      'sentence carries on down this column until',
      'it reaches the foot of the column where it',
    ];
    const right = ['continues at the top of the right column and', 'ends there after a few more words of text', 'that close the article.'];
    const md = await markdownOf({ pages: [{ runs: [...lines(72, 100, left, 10, 12), ...lines(320, 100, right, 10, 12)] }] });
    expect(md).toBe(
      'The left column starts the article and its sentence carries on down this column until it reaches the foot of the column where it continues at the top of the right column and ends there after a few more words of text that close the article.\n',
    );
  });

  it('turns link annotations into markdown links with absolute URLs only', async () => {
    // Helvetica 12 pt: "Read the " is 52 pt wide, "documentation" 78.7 pt.
    const md = await markdownOf({
      pages: [
        {
          runs: [{ x: 72, y: 100, size: 12, text: 'Read the documentation for details, or the guide.' }],
          links: [
            { box: [123, 88, 203, 103], url: 'https://example.com/docs?a=1' },
            { box: [250, 88, 290, 103], url: 'guide.html' },
          ],
        },
      ],
    });
    expect(md).toBe('Read the [documentation](https://example.com/docs?a=1) for details, or the guide.\n');
  });

  it('takes heading levels from the outline where the text is set like body text', async () => {
    const md = await markdownOf({
      pages: [
        {
          runs: [
            ...lines(72, 100, ['Background']),
            ...lines(72, 115, ['The project began as a small study of how readers skim long', 'documents and where they stop reading.']),
            ...lines(72, 160, ['Method']),
            ...lines(72, 175, ['Each reader was shown the same pages in a different order.']),
          ],
        },
      ],
      outline: [
        { title: 'Background', page: 1 },
        { title: 'Method', page: 1 },
      ],
    });
    expect(md).toBe(
      '# Background\n\nThe project began as a small study of how readers skim long documents and where they stop reading.\n\n# Method\n\nEach reader was shown the same pages in a different order.\n',
    );
  });

  it('takes headings and their levels from the structure tree of a tagged PDF', async () => {
    const md = await markdownOf({
      pages: [
        {
          runs: [
            { x: 72, y: 100, size: 12, text: 'Overview', role: 'H1' },
            { x: 72, y: 115, size: 12, text: 'The tagged text of the first section sits here.', role: 'P' },
            { x: 72, y: 145, size: 12, text: 'Details', role: 'H2' },
            { x: 72, y: 160, size: 12, text: 'More tagged text follows under the second heading.', role: 'P' },
          ],
        },
      ],
    });
    expect(md).toBe(
      '# Overview\n\nThe tagged text of the first section sits here.\n\n## Details\n\nMore tagged text follows under the second heading.\n',
    );
  });

  it('leaves out running headers, footers and page numbers', async () => {
    const page = (n: number, body: string) => ({
      runs: [
        { x: 72, y: 40, size: 9, text: 'Journal of Examples' },
        { x: 480, y: 40, size: 9, text: `Vol. ${n}` },
        ...lines(72, 120, [body]),
        { x: 300, y: 760, size: 9, text: String(n) },
      ],
    });
    const md = await markdownOf({
      pages: [
        page(1, 'The first page holds the opening paragraph.'),
        page(2, 'The second page holds the middle paragraph.'),
        page(3, 'The third page holds the closing paragraph.'),
      ],
    });
    expect(md).toBe(
      'The first page holds the opening paragraph.\n\nThe second page holds the middle paragraph.\n\nThe third page holds the closing paragraph.\n',
    );
  });

  it('keeps bullets and numbers as markdown lists', async () => {
    const md = await markdownOf({
      pages: [
        {
          runs: [
            ...lines(72, 100, ['Things to pack:']),
            ...lines(72, 125, ['\u2022 a warm coat', '\u2022 two pairs of boots']),
            ...lines(72, 170, ['Steps to follow:']),
            ...lines(72, 195, ['1. open the box', '2. check every part']),
          ],
        },
      ],
    });
    expect(md).toBe('Things to pack:\n\n- a warm coat\n- two pairs of boots\n\nSteps to follow:\n\n1. open the box\n2. check every part\n');
  });

  it('joins a column of lone currency signs to the amounts on its right', async () => {
    const run = (x: number, y: number, text: string) => ({ x, y, size: 10, text });
    const row = (y: number, item: string, price: string, count: string) => [
      run(72, y, item),
      run(232, y, '$'),
      run(250, y, price),
      run(400, y, count),
    ];
    const md = await markdownOf({
      pages: [
        {
          runs: [
            run(72, 80, 'Prices paid this year.'),
            ...[run(72, 110, 'Item'), run(250, 110, 'Price'), run(400, 110, 'Count')],
            ...row(124, 'Pens', '1.50', '12'),
            ...row(138, 'Paper', '4.00', '3'),
            ...row(152, 'Ink', '9.25', '2'),
          ],
        },
      ],
    });
    expect(md).toBe(
      'Prices paid this year.\n\n| Item | Price | Count |\n| --- | --- | --- |\n| Pens | $ 1.50 | 12 |\n| Paper | $ 4.00 | 3 |\n| Ink | $ 9.25 | 2 |\n',
    );
  });

  it('writes a table whose cells line up in columns as a pipe table, and the same table and list in html', async () => {
    const row = (y: number, cells: string[]) => cells.map((text, i) => ({ x: 72 + i * 120, y, size: 10, text }));
    const doc = await convertPdf(
      buildPdf({
        pages: [
          {
            runs: [
              ...lines(72, 80, ['Results by region for the year.'], 10),
              ...row(110, ['Region', 'Sales', 'Growth']),
              ...row(124, ['North', '1,200', '4%']),
              ...row(138, ['South', '950', '7%']),
              ...lines(72, 170, ['\u2022 figures are <rounded> & final'], 10),
            ],
          },
        ],
      }),
      { maxPages: 10 },
    );
    expect(doc.markdown).toBe(
      'Results by region for the year.\n\n| Region | Sales | Growth |\n| --- | --- | --- |\n| North | 1,200 | 4% |\n| South | 950 | 7% |\n\n- figures are \\<rounded> & final\n',
    );
    expect(doc.html).toBe(
      '<!DOCTYPE html><html><head><title></title></head><body><p>Results by region for the year.</p>\n' +
        '<table><thead><tr><th>Region</th><th>Sales</th><th>Growth</th></tr></thead><tbody><tr><td>North</td><td>1,200</td><td>4%</td></tr><tr><td>South</td><td>950</td><td>7%</td></tr></tbody></table>\n' +
        '<ul><li>figures are &lt;rounded&gt; &amp; final</li></ul></body></html>',
    );
  });

  it('escapes text that markdown would misread', async () => {
    const md = await markdownOf({ pages: [{ runs: lines(72, 100, ['*not emphasis* and [a](b) stay text']) }] });
    expect(md).toBe('\\*not emphasis\\* and [a\\](b) stay text\n');
  });

  it('converts only the first maxPages pages', async () => {
    const doc = await convertPdf(
      buildPdf({ pages: [1, 2, 3].map((n) => ({ runs: lines(72, 100, [`Text of page number ${n} in words.`]) })) }),
      { maxPages: 2 },
    );
    expect(doc.pages).toEqual({ converted: 2, total: 3 });
    expect(doc.markdown).toBe('Text of page number 1 in words.\n\nText of page number 2 in words.\n');
  });

  it('keeps text that looks like furniture when it is all the document has', async () => {
    const md = await markdownOf({ pages: [{ runs: [{ x: 300, y: 770, size: 9, text: '12' }] }] });
    expect(md).toBe('12\n');
  });

  it('refuses a PDF without text as scanned', async () => {
    const error = await refusal(buildPdf({ pages: [{ runs: [] }, { runs: [] }] }));
    expect([error.reason, error.message]).toEqual(['scanned', 'The PDF has no text layer: scanned pages need OCR.']);
  });

  it('refuses a PDF that needs a password as encrypted', async () => {
    const error = await refusal(buildPdf({ pages: [{ runs: lines(72, 100, ['secret']) }], encrypted: true }));
    expect([error.reason, error.message]).toEqual(['encrypted', 'The PDF is encrypted (it needs a password).']);
  });

  it('converts a PDF that has only an owner password', async () => {
    const md = await markdownOf({
      pages: [{ runs: lines(72, 100, ['Readable by anyone, editable by the owner.']) }],
      ownerPassword: 'owner-secret',
    });
    expect(md).toBe('Readable by anyone, editable by the owner.\n');
  });

  it('refuses bytes pdf.js cannot parse as broken, with its reason', async () => {
    const error = await refusal(new TextEncoder().encode('%PDF-1.4\nnot really a pdf\n'));
    expect([error.reason, error.message]).toEqual(['broken', 'The PDF is broken: Invalid PDF structure.']);
  });
});
