// Property-based tests for the HTML→markdown serializer: it is total (never throws, always a
// string), its output is linear in its input, and deep nesting of any mix of elements finishes.
//
// The stated bound is |output| ≤ 8·|input| + 64 for arbitrary strings and random element trees,
// with the fixed page URL below (relative links and images are made absolute against it, so
// the URL's length enters the constant: `<img src="#">` repeats the whole page URL). Lists,
// quotes and definitions nested around many short lines are the exception, bounded separately
// below at 140·|input| + 64.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/markdown/index';

const PAGE_URL = 'https://example.com/dir/page.html';
const FACTOR = 8;
const SLACK = 64;
const bound = (input: string): number => FACTOR * input.length + SLACK;

const RUNS = { numRuns: 300, seed: 0x6d61726b };
// Property runs are CPU-bound: a roomy timeout keeps them from flaking on a busy machine.
const SUITE = { timeout: 30_000 };

function convert(html: string): string {
  const out = htmlToMarkdown(html, { url: PAGE_URL });
  expect(typeof out).toBe('string');
  return out;
}

function expectBounded(html: string, out: string): void {
  if (out.length > bound(html)) {
    throw new Error(`output ${out.length} chars > ${FACTOR}·${html.length} + ${SLACK} for input ${JSON.stringify(html.slice(0, 400))}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Text and attribute values: markdown punctuation, entities (valid, numeric, bogus), whitespace
// of every kind, and non-ASCII (combining marks, RTL, emoji, lone surrogates).

const MD_PUNCTUATION = [...'*_`#>-+!|[](){}<>\\~=:.,;\'"&0123456789 \t\n'];
const ENTITIES = [
  '&amp;',
  '&lt;',
  '&gt;',
  '&quot;',
  '&nbsp;',
  '&#42;',
  '&#x5F;',
  '&#x1F600;',
  '&#0;',
  '&#xD800;',
  '&bogus;',
  '&amp',
  '&#',
  '&lt',
];
const UNICODE = [
  'é',
  'e\u0301',
  'ß',
  'ﬁ',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\u202e',
  '\ufeff',
  'עברית',
  '中文',
  '😀',
  '👩🏽‍💻',
  '\ud800',
  '\udfff',
];

const textPiece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...MD_PUNCTUATION, 'a', 'b', 'x'), maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ENTITIES) },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1. ',
      '- ',
      '# ',
      '> ',
      '```',
      '~~~',
      '    code',
      '***',
      '---',
      '===',
      '<!-- c -->',
      '<![CDATA[x]]>',
      '</p>',
      '<',
    ),
  },
);
const text = fc.array(textPiece, { maxLength: 4 }).map((parts) => parts.join(''));

const urlValue = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '/',
    '/x',
    'x y',
    '?q=1&r=2',
    '#frag',
    '//other.example/p',
    'https://other.example/a(b)c',
    'http://[::1]/',
    'javascript:alert(1)',
    'JaVaScRiPt:x',
    'data:text/html,<b>x</b>',
    'data:image/png;base64,AAAA',
    'mailto:a@b.c',
    'http://%zz',
    'https://exa mple.com',
    '<>',
  ),
  fc.webUrl(),
  fc.string({ maxLength: 12 }),
);
const spanValue = fc.oneof(
  fc.constantFrom('0', '1', '2', '-1', '1000', '1001', '65534', '99999999', 'x', '', '3.7', ' 2'),
  fc.integer({ min: -5, max: 2000 }).map(String),
);
const startValue = fc.oneof(
  fc.constantFrom('0', '-5', '999999999', '1e9', 'x', ''),
  fc.integer({ min: -1000, max: 1_000_000_000 }).map(String),
);

const ATTRIBUTES: Record<string, fc.Arbitrary<string>> = {
  href: urlValue,
  src: urlValue,
  'data-src': urlValue,
  srcset: urlValue,
  alt: text,
  title: text,
  colspan: spanValue,
  rowspan: spanValue,
  start: startValue,
  type: fc.constantFrom('1', 'a', 'A', 'i', 'I', 'disc'),
  class: fc.constantFrom('language-js', 'lang-', 'highlight', 'x'),
  lang: fc.constantFrom('en', 'he', ''),
  hidden: fc.constant(''),
  style: fc.constantFrom('display:none', 'color:red', ''),
  'aria-hidden': fc.constantFrom('true', 'false'),
};
const attributes = fc
  .uniqueArray(fc.constantFrom(...Object.keys(ATTRIBUTES)), { maxLength: 3 })
  .chain((names) => fc.tuple(...names.map((n) => ATTRIBUTES[n]!.map((v) => ` ${n}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`))))
  .map((parts) => parts.join(''));

// ---------------------------------------------------------------------------------------------
// Random HTML trees. Containers take children; void elements do not; script/style hold raw text.

const CONTAINER_TAGS = [
  'p',
  'div',
  'span',
  'a',
  'em',
  'strong',
  'i',
  'b',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
  'caption',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'del',
  'sup',
  'dl',
  'dt',
  'dd',
  'details',
  'summary',
  'figure',
  'figcaption',
  'section',
] as const;
const VOID_TAGS = ['br', 'img', 'hr'] as const;
const RAW_TAGS = ['script', 'style'] as const;

const escapeText = (s: string): string => s.replace(/</g, '&lt;');

const { node } = fc.letrec<{ node: string; element: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'medium', withCrossShrink: true },
    { weight: 3, arbitrary: fc.tuple(text, fc.boolean()).map(([t, raw]) => (raw ? t : escapeText(t))) },
    { weight: 2, arbitrary: tie('element') },
  ),
  element: fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          tag: fc.constantFrom(...CONTAINER_TAGS),
          attrs: attributes,
          children: fc.array(tie('node'), { maxLength: 6, size: 'medium' }),
          close: fc.boolean(),
        })
        .map(({ tag, attrs, children, close }) => `<${tag}${attrs}>${children.join('')}${close ? `</${tag}>` : ''}`),
    },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...VOID_TAGS), attributes).map(([tag, attrs]) => `<${tag}${attrs}>`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...RAW_TAGS), text).map(([tag, body]) => `<${tag}>${body}</${tag}>`) },
  ),
}));

const documentShape = fc.oneof(
  node,
  fc.array(node, { maxLength: 12, size: 'medium' }).map((nodes) => nodes.join('')),
  fc.array(node, { minLength: 10, maxLength: 40, size: 'max' }).map((nodes) => nodes.join('')),
  fc
    .tuple(fc.string({ maxLength: 20 }), fc.array(node, { maxLength: 8, size: 'medium' }))
    .map(
      ([base, nodes]) =>
        `<!DOCTYPE html><html><head><base href="${base.replace(/"/g, '')}"><title>t</title></head><body>${nodes.join('')}</body></html>`,
    ),
);

// ---------------------------------------------------------------------------------------------

describe('htmlToMarkdown totality', SUITE, () => {
  it('returns a string within 8·n + 64 characters for any string of any alphabet', () => {
    const anyString = fc.oneof(
      fc.string({ maxLength: 400, size: 'max' }),
      fc.string({ unit: 'binary', maxLength: 400, size: 'max' }),
      fc.string({ unit: fc.constantFrom(...'<>/="\'&;#!-abpliut \n'.split('')), maxLength: 400, size: 'max' }),
    );
    fc.assert(
      fc.property(anyString, (html) => {
        expectBounded(html, convert(html));
      }),
      { ...RUNS, numRuns: 500 },
    );
  });

  it('returns a string within 8·n + 64 characters for random element trees with random attributes and text', () => {
    fc.assert(
      fc.property(documentShape, (html) => {
        expectBounded(html, convert(html));
      }),
      RUNS,
    );
  });

  it('returns the same markdown when converting the same input twice (no state leaks between calls)', () => {
    fc.assert(
      fc.property(documentShape, documentShape, (first, second) => {
        const before = convert(second);
        convert(first);
        expect(convert(second)).toBe(before);
      }),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('returns either an empty string or trimmed markdown ending in exactly one newline', () => {
    fc.assert(
      fc.property(documentShape, (html) => {
        const out = convert(html);
        if (out !== '') {
          expect(out.endsWith('\n')).toBe(true);
          expect(out.endsWith('\n\n')).toBe(false);
        }
      }),
      RUNS,
    );
  });
});

describe('htmlToMarkdown under nested containers', SUITE, () => {
  // Lists, quotes and definitions indent every line of their content, so 8·n + 64 cannot hold
  // there: each structured level adds up to 11 columns ("999999999. ") to a line that can cost
  // 2 input characters ("x\n" in a <pre>), and the serializer structures at most 24 levels
  // (MAX_CONTAINER_DEPTH in src/markdown/context.ts). That caps the factor at 24·11/2 + 8 = 140:
  // still linear, which is what this property guards (without the cap, output grows with
  // depth × lines). A width cap on the indentation would bring this case under 8× as well.
  const CONTAINER_FACTOR = (24 * 11) / 2 + FACTOR;
  const CONTAINERS = [
    '<ul><li>',
    '<ol start="999999999"><li>',
    '<ol start="42"><li>',
    '<blockquote>',
    '<dl><dd>',
    '<li>',
    '<details>',
    '<div>',
    '<ol><li><p>a</p>',
  ];
  const LINES: readonly ((k: number) => string)[] = [
    (k) => `<pre>${'x\n'.repeat(k)}</pre>`,
    (k) => `<pre><code>x${'*\n'.repeat(k)}</code></pre>`,
    (k) => 'x<br>'.repeat(k),
    (k) => '<p>x'.repeat(k),
    (k) => '<li>x'.repeat(k),
    (k) => '<tr><td>x<td>y'.repeat(k),
    (k) => '<dt>x<dd>y'.repeat(k),
    (k) => '<h3>x</h3><hr>'.repeat(k),
  ];
  const scenario = fc.tuple(
    fc.array(fc.constantFrom(...CONTAINERS), { minLength: 1, maxLength: 40, size: 'max' }),
    fc.array(fc.tuple(fc.constantFrom(...LINES), fc.integer({ min: 1, max: 200 })), { minLength: 1, maxLength: 3 }),
  );

  it('keeps the output linear in the input: at most 140·n + 64 characters at any container depth', () => {
    fc.assert(
      fc.property(scenario, ([stack, contents]) => {
        const html = stack.join('') + contents.map(([lines, k]) => lines(k)).join('');
        const out = convert(html);
        expect(out).toContain('x');
        expect(out.length).toBeLessThanOrEqual(CONTAINER_FACTOR * html.length + SLACK);
      }),
      { ...RUNS, numRuns: 150 },
    );
  });
});

describe('htmlToMarkdown on deep nesting', SUITE, () => {
  // Openers whose content stays visible as text in markdown, each with its closer.
  const LEVELS: readonly (readonly [open: string, close: string])[] = [
    ['<div>', '</div>'],
    ['<span>', '</span>'],
    ['<em>', '</em>'],
    ['<strong>', '</strong>'],
    ['<del>', '</del>'],
    ['<blockquote>', '</blockquote>'],
    ['<ul><li>', '</li></ul>'],
    ['<ol start="999999999"><li>', '</li></ol>'],
    ['<table><tr><td>', '</td></tr></table>'],
    ['<a href="/x">', '</a>'],
    ['<h2>', '</h2>'],
    ['<section>', '</section>'],
    ['<dl><dd>', '</dd></dl>'],
    ['<details>', '</details>'],
    ['<sup>', '</sup>'],
    ['<p>', '</p>'],
    ['<li>', '</li>'],
  ];

  it('terminates on any mix of nested elements up to 3,000 levels, keeping the innermost text within 8·n + 64', () => {
    // size 'max': fast-check's default size would keep arrays to about ten elements.
    const stack = fc.array(fc.constantFrom(...LEVELS), { minLength: 1, maxLength: 3000, size: 'max' });
    fc.assert(
      fc.property(stack, fc.boolean(), (levels, closed) => {
        const html =
          levels.map(([open]) => open).join('') +
          'innermost' +
          (closed
            ? levels
                .map(([, close]) => close)
                .reverse()
                .join('')
            : '');
        const out = convert(html);
        expect(out).toContain('innermost');
        expectBounded(html, out);
      }),
      { ...RUNS, numRuns: 25 },
    );
  });

  it('terminates on a few thousand levels of one element with text at every level', () => {
    const scenario = fc.tuple(fc.constantFrom(...LEVELS), fc.integer({ min: 500, max: 3000 }));
    fc.assert(
      fc.property(scenario, ([[open, close], depth]) => {
        const html = `${open}level `.repeat(depth) + close.repeat(depth);
        const out = convert(html);
        expect(out).toContain('level');
        expectBounded(html, out);
      }),
      { ...RUNS, numRuns: 15 },
    );
  });
});
