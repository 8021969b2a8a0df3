// Parsing and the DOM facts both sides of a comparison are measured on: visible text with
// block boundaries, tokens, links, headings, list items, table cells, code blocks, images.
import { parseHTML } from 'linkedom';

const FULL_DOCUMENT = /^(?:\s|<!--[\s\S]*?-->|<!doctype[^>]*>)*<html[\s>]/i;

/** linkedom makes a fragment's first element the document element: fragments get a shell. */
export function parseDocument(html) {
  const markup = FULL_DOCUMENT.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(markup).document;
}

/** `document.body` can be a new empty element in linkedom when content precedes <head>. */
export function bodyOf(doc) {
  return doc.querySelector('body') || doc.documentElement;
}

// Subtrees whose text a reader never sees (metadata, scripts, fallback content).
export const INVISIBLE = new Set([
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

// Block-level elements: their boundaries separate words (as does <br>).
export const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'center',
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
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'optgroup',
  'option',
  'p',
  'plaintext',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'xmp',
]);

/** Statically hidden: `hidden`, inline display:none / visibility:hidden|collapse, hidden inputs. */
export function isHidden(el) {
  if (el.hasAttribute('hidden')) return true;
  if (el.localName === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'hidden') return true;
  const style = el.getAttribute('style');
  if (!style) return false;
  const s = style.toLowerCase().replace(/\s+/g, '');
  return /(^|;)display:none/.test(s) || /(^|;)visibility:(hidden|collapse)/.test(s);
}

function tagOf(el) {
  return el.localName.toLowerCase();
}

/**
 * Iterative walk over the visible tree (or over everything when `all`), calling
 * `visit(node, entering)` for elements (entering true/false) and text nodes (entering true).
 */
export function walkVisible(root, visit, all = false) {
  const stack = [[root, true]];
  while (stack.length > 0) {
    const [node, entering] = stack.pop();
    if (node.nodeType === 3 || node.nodeType === 4) {
      visit(node, true);
      continue;
    }
    if (node.nodeType !== 1) continue;
    if (!entering) {
      visit(node, false);
      continue;
    }
    if (!all && (INVISIBLE.has(tagOf(node)) || isHidden(node))) continue;
    if (visit(node, true) === false) continue;
    stack.push([node, false]);
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], true]);
  }
}

/** Text of a subtree with a newline at every block boundary and <br>. */
export function blockText(root, all = false) {
  const out = [];
  walkVisible(
    root,
    (node, entering) => {
      if (node.nodeType !== 1) {
        out.push(node.data);
        return true;
      }
      if (BLOCK.has(tagOf(node))) out.push('\n');
      return entering;
    },
    all,
  );
  return out.join('');
}

// Scripts written without spaces between words: every character is a token.
const SPLIT_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const SPLIT_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;

/** NFKC, lower case, runs of letters/digits/marks; CJK and similar scripts one char per token. */
export function tokenize(text) {
  const tokens = [];
  const norm = text.normalize('NFKC').toLowerCase();
  for (const m of norm.matchAll(WORD)) {
    const word = m[0];
    if (!SPLIT_SCRIPTS.test(word)) {
      tokens.push(word);
      continue;
    }
    for (const piece of word.matchAll(SPLIT_RUN)) tokens.push(piece[0]);
  }
  return tokens;
}

const DUMMY_BASE = 'https://bench.invalid/page/';
const NOT_LINKS = /^(javascript|vbscript|data|file):/i;

/** href resolved against one fixed base (so relative and absolute forms match) and percent-decoded. */
export function normalizeHref(href) {
  let url;
  try {
    url = new URL(href.trim(), DUMMY_BASE).href;
  } catch {
    url = href.trim();
  }
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** Text of an element without the lists nested in it (a list item's own text). */
function ownItemText(li) {
  const out = [];
  walkVisible(li, (node, entering) => {
    if (node.nodeType !== 1) {
      out.push(node.data);
      return true;
    }
    const tag = tagOf(node);
    if (node !== li && (tag === 'ul' || tag === 'ol')) return false;
    if (BLOCK.has(tag)) out.push('\n');
    return entering;
  });
  return out.join('');
}

/**
 * The facts of one document (visible part only): token sequence and the keyed items.
 * Items are multisets (Map key -> count).
 */
export function analyze(root, all = false) {
  const items = { links: new Map(), headings: new Map(), listItems: new Map(), cells: new Map(), codeBlocks: new Map(), images: new Map() };
  const add = (map, key) => map.set(key, (map.get(key) || 0) + 1);
  walkVisible(
    root,
    (node, entering) => {
      if (node.nodeType !== 1 || !entering) return true;
      const tag = tagOf(node);
      if (tag === 'a' && node.hasAttribute('href')) {
        const href = node.getAttribute('href');
        const text = tokenize(blockText(node)).join(' ');
        if (text !== '' && !NOT_LINKS.test(href.trim())) add(items.links, `${text}\u0000${normalizeHref(href)}`);
      } else if (/^h[1-6]$/.test(tag)) {
        const text = tokenize(blockText(node)).join(' ');
        if (text !== '') add(items.headings, `${tag}\u0000${text}`);
      } else if (tag === 'li') {
        const text = tokenize(ownItemText(node)).join(' ');
        if (text !== '') add(items.listItems, text);
      } else if ((tag === 'td' || tag === 'th') && !hasNestedTable(closestTable(node))) {
        const text = tokenize(blockText(node)).join(' ');
        if (text !== '') add(items.cells, text);
      } else if (tag === 'pre') {
        const text = tokenize(blockText(node)).join(' ');
        if (text !== '') add(items.codeBlocks, text);
      } else if (tag === 'img') {
        const src = (node.getAttribute('src') || '').trim();
        if (src !== '' && !/^data:/i.test(src))
          add(items.images, `${tokenize(node.getAttribute('alt') || '').join(' ')}\u0000${normalizeHref(src)}`);
      }
      return true;
    },
    all,
  );
  return { tokens: tokenize(blockText(root, all)), items };
}

function closestTable(el) {
  for (let p = el.parentNode; p; p = p.parentNode) if (p.nodeType === 1 && tagOf(p) === 'table') return p;
  return null;
}

const nestedCache = new WeakMap();
function hasNestedTable(table) {
  if (table === null) return false;
  let v = nestedCache.get(table);
  if (v === undefined) {
    v = table.querySelector('table') !== null;
    nestedCache.set(table, v);
  }
  return v;
}
