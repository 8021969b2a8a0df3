// The slice of the DOM the serializer relies on, typed structurally so the module needs no DOM
// lib and works with whatever linkedom returns; plus the element classifications (block,
// dropped, hidden) that every other module agrees on.

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;

export interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
}

export interface DomText extends DomNode {
  readonly data: string;
}

export interface DomElement extends DomNode {
  readonly localName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

export interface DomDocument {
  readonly documentElement: DomElement | null;
}

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node != null && node.nodeType === ELEMENT_NODE;
}

export function isText(node: DomNode | null | undefined): node is DomText {
  return node != null && (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE);
}

// Elements whose content a reader never sees in the rendered page (or that only carry
// metadata / fallback content), and ruby's readings (`rt`, with the `rp` parentheses shown where
// ruby is not supported): set inline, a reading splits the word it annotates ("子こども" for 子ども),
// which no search or model reads as that word; their whole subtree is skipped.
export const DROPPED_TAGS: ReadonlySet<string> = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'style',
  'script',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'video',
  'audio',
  'source',
  'track',
  'area',
  'param',
  'rt',
  'rp',
]);

// HTML's block-level (and table-internal) elements: a boundary around them separates words,
// resets the "at line start" state, and whitespace next to them is insignificant.
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
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
  'option',
  'optgroup',
]);

/** The node after `node` in document order within `root`'s subtree, or null past its end. */
export function nextInSubtree(node: DomNode, root: DomNode): DomNode | null {
  if (node.firstChild !== null) return node.firstChild;
  let at: DomNode = node;
  while (at !== root && at.nextSibling === null) at = at.parentNode!;
  return at === root ? null : at.nextSibling;
}

/** Whether an element named `tag` is inside `root` (a walk of the subtree: no selector engine needed). */
export function containsTag(root: DomElement, tag: string): boolean {
  for (let node = root.firstChild; node !== null; node = nextInSubtree(node, root)) {
    if (isElement(node) && tagOf(node) === tag) return true;
  }
  return false;
}

export function isDroppedTag(tag: string): boolean {
  return DROPPED_TAGS.has(tag);
}

export function isBlockTag(tag: string): boolean {
  return BLOCK_TAGS.has(tag);
}

export function tagOf(el: DomElement): string {
  // linkedom lower-cases HTML names; foreign (SVG/MathML) ones keep their case, which only
  // matters for names that start with a capital (camelCase SVG names live inside <svg>,
  // which is dropped whole).
  const name = el.localName;
  const first = name.charCodeAt(0);
  return first >= 65 && first <= 90 ? name.toLowerCase() : name;
}

/**
 * Statically hidden: only signals that are certain without a stylesheet — the `hidden`
 * attribute, inline display:none / visibility:hidden, and hidden inputs. `aria-hidden`
 * is not used: it hides from assistive technology, not from the eye.
 */
export function isHidden(el: DomElement): boolean {
  if (el.hasAttribute('hidden')) return true;
  if (el.localName === 'dialog' && !el.hasAttribute('open')) return true;
  if (el.localName === 'input' && el.getAttribute('type')?.toLowerCase() === 'hidden') return true;
  const style = el.getAttribute('style');
  if (style && style.length < 4096 && hasHidingStyle(style)) return true;
  return false;
}

function hasHidingStyle(style: string): boolean {
  const compact = style.toLowerCase().replace(/\s+/g, '');
  return /(^|;)display:none(!important)?(;|$)/.test(compact) || /(^|;)visibility:(hidden|collapse)(!important)?(;|$)/.test(compact);
}

/**
 * Neighbouring characters, as far as cheaply knowable from siblings: a character, SPACE
 * (whitespace or a block boundary), BREAK (a `<br>`: whitespace, but a backslash before it
 * would merge with the hard-break backslash) or UNKNOWN.
 */
export const SPACE = ' ';
export const BREAK = '\n';
export const UNKNOWN = '';

/** First character at `next` (the node after some content inside `parent`). */
export function charAfter(next: DomNode | null, parent: DomNode | null): string {
  if (next === null) return isElement(parent) && isBlockTag(tagOf(parent)) ? SPACE : UNKNOWN;
  if (isText(next)) return next.data.length > 0 ? next.data.charAt(0) : UNKNOWN;
  if (isElement(next)) {
    const tag = tagOf(next);
    if (tag === 'br') return BREAK;
    if (isBlockTag(tag)) return SPACE;
    // A link opens with `[` (a `!` before it must not turn it into an image).
    if (tag === 'a' && next.hasAttribute('href')) return '[';
  }
  return UNKNOWN;
}

/** Last character at `prev` (the node before some content inside `parent`). */
export function charBefore(prev: DomNode | null, parent: DomNode | null): string {
  if (prev === null) return isElement(parent) && isBlockTag(tagOf(parent)) ? SPACE : UNKNOWN;
  if (isText(prev)) return prev.data.length > 0 ? prev.data.charAt(prev.data.length - 1) : UNKNOWN;
  if (isElement(prev)) {
    const tag = tagOf(prev);
    if (tag === 'br' || isBlockTag(tag)) return SPACE;
  }
  return UNKNOWN;
}
