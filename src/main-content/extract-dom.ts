// What the rules that clean a main-content extract share: text and link measures, the kinds of
// sibling groups, and where text stands (media, content contexts, section heads). Plain DOM reads.
// Text is measured two ways, each for one kind of question: how much text there is (visibleLength,
// white space not counted: shares, sizes, densities) and how long a line reads (lineLength, runs of
// white space as one space: the limits on a name, a caption, a title). One rule keeps a third,
// writtenLength, for what it was measured with (captions.ts).

import { oneLine } from '../shared/one-line';

/** A poster's name, a section's heading: short lines that name what follows them. */
export const MAX_NAME_CHARS = 40;
/** Where a date line is the content itself: quotations (an embedded post's date), tables, lists, code. */
const CONTENT_CONTEXT = 'blockquote, table, li, pre, code, figure';
/** Elements whose wrappers are never removed as lines of text. */
export const HAS_MEDIA = 'img, picture, video, table, pre';

/** A text with no white space at all: what the markup's indentation cannot change. */
export const withoutSpace = (text: string) => text.replace(/\s+/g, '');

/** The node's text with no white space at all. */
export const squeezedText = (node: Node) => withoutSpace(node.textContent ?? '');

/** How much text the node holds: characters, white space not counted (the markup's indentation would dilute the link text). */
export const visibleLength = (node: Node) => squeezedText(node).length;

/**
 * Whether the node holds any text but white space (visibleLength > 0), read up to the first such
 * text instead of building all of it: asked of wrappers around pictures, the answer is often a
 * whole article's text.
 */
export function hasVisibleText(node: Node): boolean {
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return visibleLength(node) > 0;
  let next: Node | null = node.firstChild;
  while (next !== null) {
    if (next.nodeType === Node.TEXT_NODE || next.nodeType === Node.CDATA_SECTION_NODE) {
      if (/\S/.test((next as CharacterData).data)) return true;
    } else if (next.firstChild !== null) {
      next = next.firstChild;
      continue;
    }
    while (next !== node && next.nextSibling === null) next = next.parentNode!;
    next = next === node ? null : next.nextSibling;
  }
  return false;
}

/** The node's text as one line. */
export const normalized = (node: Node) => oneLine(node.textContent ?? '');

/** How long the node's text reads as one line. */
export const lineLength = (node: Node) => normalized(node).length;

/** How long the node's text is as the markup holds it: its indentation and line breaks inside counted, none at the ends. */
export const writtenLength = (node: Node) => (node.textContent ?? '').trim().length;

/** The share of the element's text that is link text (1 when it has no text). */
export function linkDensity(root: Element): number {
  const all = visibleLength(root);
  if (all === 0) return 1;
  let linked = 0;
  for (const link of root.querySelectorAll('a')) linked += visibleLength(link);
  return linked / all;
}

/** Elements a line of text runs through; a link is part of a sentence when text runs beside it. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'em',
  'i',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
]);

/**
 * Whether the item holds a link that stands as a line of its own — an item's headline or name
 * (`<h3><a>…</a></h3>`, a card's link) — rather than words of a sentence: an article's paragraphs,
 * each in a wrapper of one kind, often hold a link each too (two news articles the rule took for
 * lists before this, with links 4 % and 13 % of their text).
 */
export function holdsTitleLink(item: Element): boolean {
  for (const link of item.querySelectorAll('a[href]')) {
    if ((link.textContent ?? '').trim() === '') continue;
    let line: Element = link;
    while (line !== item && line.parentElement !== null && INLINE.has(line.parentElement.localName)) line = line.parentElement;
    const besides = line.parentElement === null || line === item ? [] : [...line.parentElement.childNodes];
    if (!besides.some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '')) return true;
  }
  return false;
}

export function inContentContext(el: Element, root: Element): boolean {
  const context = el.closest(CONTENT_CONTEXT);
  return context !== null && root.contains(context);
}

/**
 * A short line set in bold on its own ("**DON'T MISS**" over a list of links): a heading in all but
 * its tag. A bold link is a line of its own (a source, a signature), not a label.
 */
function isBoldLabel(el: Element): boolean {
  if ((el.localName !== 'p' && el.localName !== 'div') || el.querySelector('a') !== null) return false;
  const text = normalized(el);
  const bold = el.querySelector('strong, b');
  return text !== '' && text.length <= MAX_NAME_CHARS && bold !== null && normalized(bold) === text;
}

/** A rule, a short heading or a bold label: what names the part of the page that follows it. */
const isSectionHead = (el: Element) =>
  el.localName === 'hr' || (/^h[1-6]$/.test(el.localName) && lineLength(el) <= MAX_NAME_CHARS) || isBoldLabel(el);

/** The section heads right before `el` (nearest first): what names the part that starts with it. */
export function headsBefore(el: Element): Element[] {
  const heads: Element[] = [];
  for (let before = el.previousElementSibling; before !== null && isSectionHead(before); before = before.previousElementSibling)
    heads.push(before);
  return heads;
}

/** An element's kind among its siblings: tag and class (items of a list, cards, posts). */
/** An element's kind: its tag and class attribute, as a template writes every item of a list. */
export const kindOf = (el: Element) => `${el.localName}.${el.getAttribute('class') ?? ''}`;

/** The element's children grouped by kind. */
export function siblingGroups(parent: Element): Element[][] {
  const groups = new Map<string, Element[]>();
  for (const child of parent.children) {
    const kind = kindOf(child);
    const group = groups.get(kind);
    if (group === undefined) groups.set(kind, [child]);
    else group.push(child);
  }
  return [...groups.values()];
}

/** The element's children in runs of one tag, next to each other (their classes may differ). */
export function siblingRuns(parent: Element): Element[][] {
  const runs: Element[][] = [];
  let tag = '';
  for (const child of parent.children) {
    if (child.localName === tag) runs.at(-1)!.push(child);
    else runs.push([child]);
    tag = child.localName;
  }
  return runs;
}

/**
 * The elements under `root` with at most `maxChars` of text, white space not counted (visibleLength),
 * found in one pass from the leaves up (reverse document order meets children before their parent),
 * so that no element's text is built to be measured, however deep the extract nests.
 */
export function shortElements(root: Element, maxChars: number): Set<Element> {
  const lengths = new Map<Element, number>();
  const all = root.querySelectorAll('*');
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i]!;
    let length = 0;
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === Node.ELEMENT_NODE) length += lengths.get(child as Element) ?? 0;
      else if (child.nodeType === Node.TEXT_NODE) length += visibleLength(child);
    }
    lengths.set(el, length);
  }
  return new Set([...lengths].filter(([, length]) => length <= maxChars).map(([el]) => el));
}
