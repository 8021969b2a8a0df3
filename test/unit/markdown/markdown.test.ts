// Golden files (one HTML/markdown pair per element kind) and focused behaviour checks for the
// HTML→markdown serializer. Every fixture is converted with the same page URL.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/markdown/index';

const FIXTURES = fileURLToPath(new URL('../../fixtures/markdown/', import.meta.url));
const PAGE_URL = 'https://example.com/docs/page.html';
const cases = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.html'))
  .map((name) => name.slice(0, -'.html'.length))
  .sort();

const md = (html: string, url?: string): string => htmlToMarkdown(html, url === undefined ? {} : { url });

describe('golden files', () => {
  it('has a fixture for every element kind', () => {
    expect(cases).toEqual(
      expect.arrayContaining([
        'headings',
        'paragraphs',
        'emphasis',
        'inline-code',
        'code-blocks',
        'lists-nested',
        'ordered-start',
        'blockquotes',
        'tables',
        'tables-no-thead',
        'links-images-absolute',
        'base-href',
        'hr-br',
        'dropped-content',
        'escaping',
        'whitespace',
        // Beyond the peers, and their known failure modes.
        'tables-spans',
        'tables-cell-blocks',
        'definition-lists',
        'details-summary',
        'figures',
        'inline-tags',
        'lazy-images',
        'links-blocks',
        'emphasis-nested',
        'lists-loose-tight',
        'pre-links',
        'empty-elements',
      ]),
    );
  });

  it.each(cases)('%s', (name) => {
    const html = readFileSync(`${FIXTURES}${name}.html`, 'utf8');
    const expected = readFileSync(`${FIXTURES}${name}.md`, 'utf8');
    expect(htmlToMarkdown(html, { url: PAGE_URL })).toBe(expected);
  });
});

describe('output shape', () => {
  it('ends with exactly one newline, or is empty', () => {
    expect(md('<p>x</p>')).toBe('x\n');
    expect(md('<p> </p><div></div>')).toBe('');
  });

  it('never emits whitespace-only lines or runs of blank lines', () => {
    const out = md(
      '<div><p>a</p>\n\n<div>\n\n</div><p>b</p><ul><li><p>c</p><p>d</p></li></ul><blockquote><p>e</p><p>f</p></blockquote></div>',
    );
    expect(out).not.toMatch(/^[ \t]+$/m);
    expect(out).not.toMatch(/\n\n\n/);
    expect(out).not.toMatch(/[ \t]$/m);
  });
});

describe('headings and paragraphs', () => {
  it('uses ATX headings and flattens them to one line', () => {
    expect(md('<h3>a<br>b</h3>')).toBe('### a b\n');
    expect(md('<h7>not a heading</h7>')).toBe('not a heading\n');
  });

  it('escapes a trailing hash run that would close the heading', () => {
    expect(md('<h2>Issue #</h2>')).toBe('## Issue \\#\n');
    expect(md('<h2>C#</h2>')).toBe('## C#\n');
  });
});

describe('code', () => {
  it('fences with more backticks than any run inside', () => {
    expect(md('<pre>a ```` b</pre>')).toBe('`````\na ```` b\n`````\n');
  });

  it('takes the language from lang-* on pre or language-* on code', () => {
    expect(md('<pre class="lang-rust">fn main() {}</pre>')).toBe('```rust\nfn main() {}\n```\n');
    expect(md('<pre><code class="x language-c++">int a;</code></pre>')).toBe('```c++\nint a;\n```\n');
  });

  it('takes the language from a one-word data-lang on code or pre, a class first', () => {
    expect(md('<pre data-lang="rust"><code>fn main() {}</code></pre>')).toBe('```rust\nfn main() {}\n```\n');
    expect(md('<pre><code data-lang="go">package main</code></pre>')).toBe('```go\npackage main\n```\n');
    expect(md('<pre data-lang="js"><code class="language-ts">let a;</code></pre>')).toBe('```ts\nlet a;\n```\n');
    // Not one word, or a backtick an info string cannot hold: no language.
    expect(md('<pre data-lang="two words">x</pre>')).toBe('```\nx\n```\n');
    expect(md('<pre data-lang="a`b">x</pre>')).toBe('```\nx\n```\n');
  });

  it('pads a code span whose content is space-delimited or starts with a backtick', () => {
    expect(md('<code>``</code>')).toBe('``` `` ```\n');
    expect(md('<code> a </code>')).toBe('`  a  `\n');
  });

  it('turns a code block inside a table cell into a code span', () => {
    expect(md('<table><tr><th>h</th><th>c</th></tr><tr><td>1</td><td><pre>a  |\nb</pre></td></tr></table>')).toBe(
      '| h | c |\n| --- | --- |\n| 1 | `a \\| b` |\n',
    );
  });
});

describe('lists', () => {
  it('indents continuation lines to the marker width', () => {
    expect(md('<ol start="9"><li>a<p>b</p></li><li>c<ul><li>d</li></ul></li></ol>')).toBe('9. a\n\n   b\n\n10. c\n    - d\n');
  });

  it('clamps start to what CommonMark accepts', () => {
    expect(md('<ol start="12345678901"><li>x</li></ol>')).toBe('999999999. x\n');
    expect(md('<ol start="-3"><li>x</li></ol>')).toBe('0. x\n');
  });

  it('gives an orphan list item a bullet', () => {
    expect(md('<li>alone</li>')).toBe('- alone\n');
  });
});

describe('tables', () => {
  it('pads ragged rows and expands colspan', () => {
    expect(md('<table><tr><td>a</td><td>b</td></tr><tr><td colspan="3">c</td></tr><tr><td>d</td></tr></table>')).toBe(
      '| a | b |  |\n| --- | --- | --- |\n| c |  |  |\n| d |  |  |\n',
    );
  });

  it("renders a table whose role is presentation or none as its cells' blocks, never a GFM table", () => {
    expect(md('<table role="presentation"><tr><td>Left column text</td><td>Right column text</td></tr></table>')).toBe(
      'Left column text\n\nRight column text\n',
    );
    expect(md('<table role="none"><tr><td>A</td><td>B</td></tr></table>')).toBe('A\n\nB\n');
    expect(md('<table role="grid"><tr><td>A</td><td>B</td></tr></table>')).toBe('| A | B |\n| --- | --- |\n');
  });

  it('renders a layout table (one holding a table) as blocks, the inner data table as GFM', () => {
    expect(md('<table><tr><td>outer</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>')).toBe(
      'outer\n\n| x | y |\n| --- | --- |\n',
    );
  });

  it('refuses to pad a pathologically ragged table', () => {
    const row = `<tr>${'<td>x</td>'.repeat(200)}</tr>`;
    const html = `<table>${row}${'<tr><td>y</td></tr>'.repeat(200)}</table>`;
    const out = md(html);
    expect(out.length).toBeLessThan(html.length);
    expect(out).not.toContain('| --- |');
  });
});

describe('links and images', () => {
  it('keeps relative URLs when no page URL is given', () => {
    expect(md('<a href="a/b.html">x</a>')).toBe('[x](a/b.html)\n');
  });

  it('uses an absolute <base href> even without a page URL', () => {
    expect(md('<html><head><base href="https://b.example/d/"></head><body><a href="x">x</a></body></html>')).toBe(
      '[x](https://b.example/d/x)\n',
    );
  });

  it('wraps destinations with spaces in angle brackets', () => {
    expect(md('<a href="my file.html">x</a>')).toBe('[x](<my file.html>)\n');
  });

  it('drops javascript: links whatever their spelling', () => {
    expect(md('<a href=" JavaScript:void(0)">x</a> <a href="java\tscript:alert(1)">y</a>', PAGE_URL)).toBe('x y\n');
  });

  it('escapes brackets inside link text', () => {
    expect(md('<a href="/x">[1] a]b</a>', PAGE_URL)).toBe('[\\[1\\] a\\]b](https://example.com/x)\n');
  });

  it('keeps a space at the edge of the link text beside the link, so words do not run together', () => {
    expect(md('<p>After <a href="/a">Bloomberg reported </a>WeWork said.</p>', PAGE_URL)).toBe(
      'After [Bloomberg reported](https://example.com/a) WeWork said.\n',
    );
    expect(md('<p>After<a href="/a"> Bloomberg</a> said.</p>', PAGE_URL)).toBe('After [Bloomberg](https://example.com/a) said.\n');
    expect(md('<p>Is <a href="/a">located</a><a href="/b"> </a>near it.</p>', PAGE_URL)).toBe(
      'Is [located](https://example.com/a) near it.\n',
    );
  });

  it('flattens several paragraphs inside a link onto one line, so the anchor keeps its whole text', () => {
    expect(md('<a href="/card"><p>Kicker</p><p>Summary</p></a>', PAGE_URL)).toBe('[Kicker Summary](https://example.com/card)\n');
  });

  it('links each block of a teaser that holds a heading, and the heading keeps its level', () => {
    expect(md('<a href="/card"><p>Kicker</p><h3>Title</h3><p>Summary</p></a>', PAGE_URL)).toBe(
      '[Kicker](https://example.com/card)\n\n### [Title](https://example.com/card)\n\n[Summary](https://example.com/card)\n',
    );
  });

  it('writes a list inside a table cell as inline HTML list markup, which keeps its items', () => {
    expect(
      md(
        '<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>Intro<ol start="3"><li>three<ul><li>sub</li></ul></li><li><p>four</p><p>more</p></li></ol></td></tr></table>',
      ),
    ).toBe('| a | b |\n| --- | --- |\n| x | Intro<ol start="3"><li>three<ul><li>sub</li></ul></li><li>four<br>more</li></ol> |\n');
  });

  it('keeps the alt text of an image without a usable source', () => {
    expect(md('<img alt="only alt">')).toBe('only alt\n');
    expect(md('<img src="data:image/png;base64,AAAA" alt="inline">')).toBe('inline\n');
    expect(md('<img src="">')).toBe('');
  });
});

describe('emphasis', () => {
  it('moves edge hard breaks and spaces outside the delimiters', () => {
    expect(md('<p><b>foo<br></b>bar <i> x</i></p>')).toBe('**foo**\\\nbar *x*\n');
  });

  it('drops delimiters that could not parse rather than leak them', () => {
    expect(md('<p>a<strong>"b"</strong>c</p>')).toBe('a"b"c\n');
    expect(md('<p><em><p>x</p><p>y</p></em></p>')).toBe('x\n\ny\n');
  });

  it('switches to underscores right after another emphasis', () => {
    expect(md('<p><b>a</b><b>b</b></p>')).toBe('**a**__b__\n');
  });
});

describe('whitespace', () => {
  it('collapses whitespace across inline boundaries like a browser', () => {
    expect(md('<p>a <b> b </b> c</p>')).toBe('a **b** c\n');
    expect(md('<p>x<em> </em>y</p>')).toBe('x y\n');
  });

  it('leaves out a paragraph of zero-width spaces, which shows nothing', () => {
    expect(md('<p>One.</p><p>\u200b</p><p>\u200b\ufeff </p><p>Two.</p>')).toBe('One.\n\nTwo.\n');
  });

  it('collapses every kind of HTML white space inside a text run to one space, and leaves a single space', () => {
    for (const gap of ['\t', '\n', '\r\n', '\f', '  ', ' \t\n ']) expect(md(`<p>a${gap}b</p>`)).toBe('a b\n');
    expect(md('<p>a b c</p>')).toBe('a b c\n');
  });

  it('keeps non-breaking spaces', () => {
    expect(md('<p>1&nbsp;000</p>')).toBe('1\u00a0000\n');
  });

  it('drops spaces and hard breaks next to block boundaries', () => {
    expect(md('<div>a <br><p>b</p> <br>c</div>')).toBe('a\n\nb\n\nc\n');
  });
});

describe('ruby', () => {
  it('keeps the base text and leaves out the readings and their fallback parentheses', () => {
    expect(md('<p><ruby>子<rt>こ</rt></ruby>どもへの<ruby>虐待<rp>(</rp><rt>ぎゃくたい</rt><rp>)</rp></ruby>をなくす</p>')).toBe(
      '子どもへの虐待をなくす\n',
    );
    expect(md('<p>The <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> are read.</p>')).toBe('The 漢字 are read.\n');
  });
});
