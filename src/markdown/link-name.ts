// The name a link goes by when it has no text to read (docs/reader-view.md "Icon links"): its
// `aria-label`, the text of what `aria-labelledby` points to, an SVG icon's `<title>`, else its
// `title`. The one owner of that rule: the serializer asks `linkName` of any DOM; in the page the
// reader form asks `iconName` before it copies the link (what `aria-labelledby` points to may lie
// outside the copy, in the link's own shadow root, and an SVG's `<title>` is laid out nowhere, so the
// copy has neither) and hands the name on as the copy's `aria-label`.

import { isElement, isText, nextInSubtree, tagOf } from './dom';
import type { DomElement } from './dom';
import { collapseWhitespace } from './text';

/** Long enough for any real label; a page cannot make a link's name swallow the output. */
const MAX_NAME_LENGTH = 300;
/** `aria-labelledby` ids read at most. */
const MAX_LABELLING_IDS = 8;
/** Nodes looked at inside an icon link: an icon link is small, and links nested by script stay linear. */
export const MAX_ICON_SCAN = 256;

/** The text of the element with this id in the link's tree, if there is one. */
export type TextById = (id: string) => string | null | undefined;

/** A name as it is written: white space collapsed, none at the ends, bounded. */
const nameText = (text: string) => collapseWhitespace(text).trim().slice(0, MAX_NAME_LENGTH).trim();

/** The link's own `aria-label`, '' when it has none to read. */
export const ariaLabel = (link: DomElement) => collapseWhitespace(link.getAttribute('aria-label') ?? '').trim();

/** The text of the elements `aria-labelledby` names, found by `textById`, '' when none has any. */
function labelledByName(ids: string, textById: TextById): string {
  const parts: string[] = [];
  for (const id of ids.trim().split(/\s+/).slice(0, MAX_LABELLING_IDS)) {
    const text = id === '' ? '' : nameText(textById(id) ?? '');
    if (text !== '') parts.push(text);
  }
  return nameText(parts.join(' '));
}

/** The first SVG `<title>` inside `link`, '' when there is none: the name an icon gives itself. */
function svgTitleName(link: DomElement): string {
  let steps = 0;
  for (let node = link.firstChild; node !== null && ++steps <= MAX_ICON_SCAN; node = nextInSubtree(node, link)) {
    if (!isElement(node) || tagOf(node) !== 'title' || !isElement(node.parentNode) || tagOf(node.parentNode) !== 'svg') continue;
    let text = '';
    for (let c = node.firstChild; c !== null; c = c.nextSibling) if (isText(c)) text += c.data;
    return nameText(text);
  }
  return '';
}

/**
 * The name the link's markup gives it besides its attributes: the text of what `aria-labelledby`
 * points to (looked up with `textById`; null where ids cannot be looked up), else an SVG icon's
 * `<title>`; '' when neither names it.
 */
export function iconName(link: DomElement, textById: TextById | null): string {
  const ids = link.getAttribute('aria-labelledby');
  const labelled = ids === null || textById === null ? '' : labelledByName(ids, textById);
  return labelled !== '' ? labelled : svgTitleName(link);
}

interface IdLookup {
  getElementById?(id: string): { textContent?: string | null } | null;
}

/** Ids looked up in the link's document, where it has one that can (a parsed document can; the reader form's plain objects cannot). */
function documentLookup(link: DomElement): TextById | null {
  const doc = (link as DomElement & { ownerDocument?: IdLookup | null }).ownerDocument;
  if (typeof doc?.getElementById !== 'function') return null;
  return (id) => doc.getElementById?.(id)?.textContent;
}

/** The name a link without text goes by, '' when nothing names it. */
export function linkName(link: DomElement): string {
  const label = ariaLabel(link);
  if (label !== '') return label;
  const name = iconName(link, documentLookup(link));
  return name !== '' ? name : collapseWhitespace(link.getAttribute('title') ?? '').trim();
}
