// Round trip: the markdown, rendered back to HTML by markdown-it (CommonMark + GFM tables and
// strikethrough), must show the same text as the original page. This is what the escaping is
// for: literal `*`, `#`, `<`, `1.` and friends must come back as text, not as markup.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/markdown/index';

const FIXTURES = fileURLToPath(new URL('../../fixtures/markdown/', import.meta.url));
// html: true so that any raw HTML leaking into the markdown is swallowed as tags and fails.
const renderer = new MarkdownIt('commonmark', { html: true }).enable(['table', 'strikethrough']);

// Kept independent of the serializer's own lists on purpose (mirrors the benchmark's rules).
const INVISIBLE = new Set([
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

interface Node {
  nodeType: number;
  data?: string;
  localName?: string;
  childNodes: Node[];
  getAttribute?(name: string): string | null;
  hasAttribute?(name: string): boolean;
}

function isHidden(el: Node): boolean {
  const style = (el.getAttribute?.('style') ?? '').replace(/\s+/g, '').toLowerCase();
  return el.hasAttribute?.('hidden') === true || /display:none|visibility:hidden/.test(style);
}

/** Text a reader sees: blocks and <br> separate words, whitespace normalised. */
function visibleText(html: string): string {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  const out: string[] = [];
  const stack: (Node | string)[] = [document.documentElement as unknown as Node];
  while (stack.length > 0) {
    const node = stack.pop() as Node | string;
    if (typeof node === 'string') {
      out.push(node);
    } else if (node.nodeType === 3) {
      out.push(node.data ?? '');
    } else if (node.nodeType === 1) {
      const tag = node.localName?.toLowerCase() ?? '';
      if (INVISIBLE.has(tag) || isHidden(node)) continue;
      const block = BLOCK.has(tag);
      if (block) out.push(' ');
      if (block) stack.push(' ');
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i] as Node);
    }
  }
  return out.join('').replace(/\s+/g, ' ').trim();
}

function roundTrip(html: string): string {
  return renderer.render(htmlToMarkdown(html, { url: 'https://example.com/docs/page.html' }));
}

const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.html'))
  .sort();

// Fixtures whose markdown deliberately shows more than the page's visible text: there, every
// visible word must still come back, in order (a subsequence), and the additions are named.
const ADDITIONS: Record<string, string> = {
  'definition-lists.html': 'the `: ` before each definition',
  'pre-links.html': 'the list of the links inside the preformatted block',
  'lazy-images.html': 'the alt text of an image whose only source is a data: URL',
  'icon-links.html': 'the accessible name (aria-label, title) of each link without text',
};

function words(text: string): string[] {
  return text.split(' ').filter((w) => w !== '');
}

/** Whether `needle` occurs in `hay` in order, not necessarily contiguously. */
function isSubsequence(needle: readonly string[], hay: readonly string[]): boolean {
  let j = 0;
  for (const word of hay) if (j < needle.length && word === needle[j]) j++;
  return j === needle.length;
}

describe('round trip through markdown-it keeps the visible text', () => {
  it.each(fixtures)('fixture %s', (name) => {
    const html = readFileSync(`${FIXTURES}${name}`, 'utf8');
    const back = visibleText(roundTrip(html));
    if (ADDITIONS[name] === undefined) {
      expect(back).toBe(visibleText(html));
    } else {
      expect(isSubsequence(words(visibleText(html)), words(back))).toBe(true);
      expect(back).not.toBe(visibleText(html));
    }
  });

  const tricky: string[] = [
    '<p>*not emphasis*</p>',
    '<p>**not strong** and __not either__</p>',
    '<p>1. not a list</p>',
    '<p>2) not a list either</p>',
    '<p># not a heading</p>',
    '<p>###### six</p>',
    '<p>####### seven hashes is text anyway</p>',
    '<p>&lt;not a tag&gt; &lt;/closing&gt; &lt;!-- comment --&gt; &lt;?pi?&gt;</p>',
    '<p>&lt;https://autolink.example&gt;</p>',
    '<p>a_b_c and _a_b_ and a__b__c</p>',
    '<p>2*3*4 and a * b * c</p>',
    '<p>`one` ``two`` ```three```</p>',
    '<p>~~tilde~~ ~one~</p>',
    '<p>[link](url) and [ref][x] and ![img](src)</p>',
    '<p>[a]: /definition</p>',
    '<p>&amp;amp; &amp;#35; &amp;#x41; &amp;nbsp</p>',
    '<p>back\\slash \\* \\\\ end\\</p>',
    '<p>line<br>===</p>',
    '<p>line<br>---</p>',
    '<p>line<br>- item</p>',
    '<p>line<br>+</p>',
    '<p>line<br>&gt; quote</p>',
    '<p>~~~</p><p>```</p>',
    '<p>| a | b |<br>| --- | --- |</p>',
    '<p>_ _ _</p><p>* * *</p>',
    '<table><tr><th>a|b</th><th>`c|d`</th></tr><tr><td>\\|</td><td><code>|</code></td></tr></table>',
    '<ul><li># heading-like item</li><li>1. numbered-like item</li><li>- dash item</li></ul>',
    '<blockquote>&gt; nested-looking</blockquote>',
    '<h1>Title #</h1><h2>###</h2>',
    '<p><em>em</em><em>adjacent</em> <strong>a</strong><strong>b</strong></p>',
    '<p>x<strong>.</strong>y <em>(paren)</em>z</p>',
    '<p><a href="/x">a [bracket] ](link)</a></p>',
    '<p><code>a`b``c</code> and <code>`</code></p>',
    '<p>foo<br><br>bar</p>',
    '<p>Price: $5 * 2 = $10 &amp; 50% off!</p>',
    '<div>text <p>para</p> tail<br>next</div>',
    '<p><b>foo<br></b>bar</p><p>a<b>b<br>c</b>d</p>',
    '<p>a<strong>"b"</strong>c and <em>x</em>.<em>y</em></p>',
    '<ol start="5"><li>five<ol start="3"><li>three</li></ol></li></ol><ul><li>one</li></ul><ul><li>two</li></ul>',
  ];

  it.each(tricky)('tricky %s', (html) => {
    expect(visibleText(roundTrip(html))).toBe(visibleText(html));
  });
});
