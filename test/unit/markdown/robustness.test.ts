// The serializer is total and linear: any input converts without throwing, output stays
// within a constant factor of the input, and pathological shapes (deep nesting, megabyte
// text nodes) finish quickly.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/markdown/index';

const nest = (open: string, close: string, depth: number, inner: string): string => open.repeat(depth) + inner + close.repeat(depth);

function convertTimed(html: string): { out: string; ms: number } {
  const start = performance.now();
  const out = htmlToMarkdown(html, { url: 'https://example.com/' });
  return { out, ms: performance.now() - start };
}

describe('degenerate input', () => {
  it('returns an empty string for empty and whitespace-only input', () => {
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown('  \n\t ')).toBe('');
    expect(htmlToMarkdown('<html><head><title>t</title></head><body></body></html>')).toBe('');
  });

  it('converts plain text without markup', () => {
    expect(htmlToMarkdown('just some text')).toBe('just some text\n');
  });

  it('tolerates non-string input at runtime', () => {
    expect(htmlToMarkdown(undefined as unknown as string)).toBe('');
    expect(htmlToMarkdown(42 as unknown as string)).toBe('42\n');
  });

  it('recovers from unclosed and stray tags', () => {
    expect(htmlToMarkdown('<p>unclosed <b>bold <i>both')).toBe('unclosed __bold *both*__\n');
    expect(htmlToMarkdown('</p></div>text<')).toBe('text<\n');
    expect(htmlToMarkdown('<td>cell</td><tr>row</tr>')).toBe('cell\n\nrow\n');
    expect(htmlToMarkdown('<ul><li>a<li>b</ul>')).toBe('- a\n- b\n');
  });

  it('keeps content that precedes <html> in a full document', () => {
    expect(htmlToMarkdown('<!doctype html><div>stray</div><html><head><title>T</title></head><body>Z</body></html>')).toBe('stray\n\nZ\n');
  });
});

describe('deep nesting', () => {
  const depth = 10_000;
  const shapes: [string, string, string][] = [
    ['div', '<div>', '</div>'],
    ['span', '<span>', '</span>'],
    ['em', '<em>', '</em>'],
    ['blockquote', '<blockquote>', '</blockquote>'],
    ['list', '<ul><li>', '</li></ul>'],
    ['list with text', '<ul><li>x', '</li></ul>'],
    ['table', '<table><tr><td>', '</td></tr></table>'],
    ['link', '<a href="/x">', '</a>'],
    ['link around a heading', '<a href="/x"><h2>', '</h2></a>'],
    ['mixed emphasis', '<em><strong>', '</strong></em>'],
    ['superscript', '<sup>', '</sup>'],
    ['definition list', '<dl><dd>', '</dd></dl>'],
    ['details', '<details><summary>s</summary>', '</details>'],
  ];

  it.each(shapes)('%s, 10,000 levels deep, converts without throwing', (_name, open, close) => {
    const html = nest(open, close, depth, 'innermost');
    const { out, ms } = convertTimed(html);
    expect(out).toContain('innermost');
    expect(out.length).toBeLessThan(html.length * 4);
    expect(ms).toBeLessThan(10_000);
  });
});

describe('large input', () => {
  it('converts a 1 MB text node quickly and verbatim', () => {
    const text = 'word '.repeat(200_000).trim();
    const { out, ms } = convertTimed(`<p>${text}</p>`);
    expect(out).toBe(`${text}\n`);
    expect(ms).toBeLessThan(2_000);
  });

  it('escapes a 1 MB text node full of markdown punctuation in linear time', () => {
    const text = 'a*b_c [d] <e> `f` '.repeat(60_000);
    const { out, ms } = convertTimed(`<p>${text.replace(/</g, '&lt;')}</p>`);
    expect(out.length).toBeGreaterThan(text.length);
    expect(out.length).toBeLessThan(text.length * 2);
    expect(ms).toBeLessThan(3_000);
  });

  it('converts a 1 MB <pre> block with its whitespace intact', () => {
    const code = '  x = 1;\n\n\ty = 2;\n'.repeat(50_000);
    const { out, ms } = convertTimed(`<pre>${code}</pre>`);
    expect(out).toBe(`\`\`\`\n${code.slice(0, -1)}\n\`\`\`\n`);
    expect(ms).toBeLessThan(2_000);
  });

  it('converts a million nodes in linear time with bounded output', () => {
    // 500,000 text nodes and 500,000 <br> elements.
    const html = 'a<br>'.repeat(500_000);
    const { out, ms } = convertTimed(html);
    const lines = out.slice(0, -1).split('\n');
    expect(lines).toHaveLength(500_000);
    // Every line but the last ends in a hard break; the last one's is dropped.
    expect(lines[0]).toBe('a\\');
    expect(lines[lines.length - 1]).toBe('a');
    expect(out.length).toBeLessThan(html.length);
    expect(ms).toBeLessThan(20_000);
  }, 30_000);

  it('handles many thousands of sibling elements', () => {
    const html = '<p>a <b>b</b> <a href="/c">c</a></p>'.repeat(20_000);
    const { out, ms } = convertTimed(html);
    expect(out.split('\n\n')).toHaveLength(20_000);
    expect(ms).toBeLessThan(5_000);
  });

  it('caps list indentation, so deeply nested long ordinals cannot multiply every line of their content', () => {
    const html = '<ol start=999999999><li>'.repeat(24) + '<pre>' + 'x\n'.repeat(20_000) + '</pre>';
    const markdown = htmlToMarkdown(html, { url: 'https://example.com/' });
    expect(markdown).toContain('x\n');
    expect(markdown.length).toBeLessThan(30 * html.length);
  });
});
