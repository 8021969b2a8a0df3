// The reader form of a document: what a person sees, copied into an inert document that the
// markdown serializer then walks. The composed tree (an open shadow root in place of its host's
// children, a slot filled with what is assigned to it, else its fallback), same-origin and srcdoc
// iframes' documents where the iframe stands, elements the browser renders no box for left out
// (decided by the browser's own style and layout), images with the URL the browser chose. A
// cross-origin iframe, out of this world's reach, becomes a placeholder the caller grafts its
// frame's own reader form into.
//
// Nodes are copied with importNode (a clone, no markup parsed): a page that enforces Trusted Types
// refuses HTML strings even from an isolated world.
import { FRAME_KEYS_GLOBAL, type ReadBounds } from './protocol';
import { TOO_LARGE } from './too-large';

/** Never content: scripts, styles, fallbacks for no scripting, inert templates. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta']);

export interface ReaderForm {
  doc: Document;
  /** Where the content went: the inert document's body. */
  body: HTMLElement;
  /** Placeholders of cross-origin frames, by the key the caller registered for each. */
  remoteFrames: Map<string, Element>;
}

interface Entry {
  node: Node;
  /** Where the copy goes. */
  parent: Node;
  /** Inside a closed <details>, below its <summary>: nothing is laid out there. */
  closed: boolean;
  /** Whether text shows here (visibility: hidden hides it; a descendant may show again). */
  textShows: boolean;
  /** How many iframe documents this node is nested in. */
  depth: number;
}

const styleOf = (el: Element) => el.ownerDocument.defaultView?.getComputedStyle(el) ?? null;

/**
 * Whether the element's subtree can hold anything rendered: false for display:none (itself or an
 * ancestor) and content-visibility:hidden. Inside a closed <details> nothing is laid out, so style
 * alone decides there.
 */
function rendersSubtree(el: Element, inClosedDetails: boolean): boolean {
  if (inClosedDetails) return styleOf(el)?.display !== 'none';
  if (el.checkVisibility()) return true;
  // Reached only under rendered ancestors, so a box-less display:contents element passes on.
  return styleOf(el)?.display === 'contents';
}

function showsText(el: Element): boolean {
  const style = styleOf(el);
  return style === null || style.visibility === 'visible';
}

/**
 * Whether text directly inside the element shows, or null when nothing in its subtree is rendered.
 * One native check answers for almost every element (rendered, visibility visible); only the others
 * pay for a computed style.
 */
function textShowsIn(el: Element, inClosedDetails: boolean): boolean | null {
  if (!inClosedDetails && el.checkVisibility({ visibilityProperty: true })) return true;
  return rendersSubtree(el, inClosedDetails) ? showsText(el) : null;
}

/** The URL the browser chose (currentSrc), else a lazy loader's real source, else src. */
function imageSource(img: HTMLImageElement): string | null {
  const current = img.currentSrc;
  if (current && !current.startsWith('data:')) return current;
  const lazy = img.getAttribute('data-src') || img.getAttribute('data-lazy-src') || img.getAttribute('data-original');
  if (lazy) {
    try {
      return new URL(lazy, img.baseURI).href;
    } catch {
      return lazy;
    }
  }
  return img.getAttribute('src') === null ? null : img.src;
}

// Nodes of a same-origin iframe's document come from another realm (the frame's own isolated world),
// where `instanceof` against this world's classes fails: elements are told apart by their names.
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const isElement = (node: Node): node is Element => node.nodeType === Node.ELEMENT_NODE;
function isHtml<K extends keyof HTMLElementTagNameMap>(node: Node, tag: K): node is HTMLElementTagNameMap[K] {
  return isElement(node) && node.localName === tag && node.namespaceURI === HTML_NS;
}

/** The node's children in the composed tree, last first (the order they go on the walk's stack). */
function composedChildrenReversed(node: Node): Node[] {
  if (isHtml(node, 'slot')) {
    const assigned = node.assignedNodes({ flatten: true });
    if (assigned.length > 0) return assigned.reverse();
  }
  const parent = (node as Element).shadowRoot ?? node;
  const children: Node[] = [];
  for (let child = parent.lastChild; child !== null; child = child.previousSibling) children.push(child);
  return children;
}

function frameDocument(frame: HTMLIFrameElement | HTMLFrameElement): Document | null {
  try {
    return frame.contentDocument;
  } catch {
    return null;
  }
}

const isFrame = (el: Element): el is HTMLIFrameElement | HTMLFrameElement =>
  (el.localName === 'iframe' || el.localName === 'frame') && el.namespaceURI === HTML_NS;

/** A new empty document: no scripts run in it, nothing loads, no page script can reach it. */
function inertDocument(source: Document): Document {
  const doc = source.implementation.createHTMLDocument('');
  const lang = source.documentElement?.getAttribute('lang');
  if (lang) doc.documentElement.setAttribute('lang', lang);
  // The document's own base URL, absolute: links keep resolving as they did in the page.
  doc.head.append(Object.assign(doc.createElement('base'), { href: source.baseURI }));
  doc.title = source.title;
  return doc;
}

/** Copies what a reader sees of `source`'s body into a new inert document. */
export function readerForm(source: Document, bounds: ReadBounds): ReaderForm {
  const doc = inertDocument(source);
  const form: ReaderForm = { doc, body: doc.body, remoteFrames: new Map() };
  if (source.body === null) return form;
  const frameKeys = (globalThis as Record<string, unknown>)[FRAME_KEYS_GLOBAL] as Map<Element, string> | undefined;
  let size = 0;
  let frames = 0;
  const grow = (chars: number) => {
    size += chars;
    if (size > bounds.maxChars) throw TOO_LARGE;
  };
  /** A copy of the element alone, or with its content when `deep` (then it holds text only). */
  const copyOf = (el: Element, deep: boolean): Element => {
    const copy = doc.importNode(el, deep);
    const { attributes } = el;
    for (let i = 0; i < attributes.length; i++) grow(attributes[i]!.name.length + attributes[i]!.value.length + 4);
    if (deep) grow(el.textContent?.length ?? 0);
    return copy;
  };

  // An explicit stack, not recursion: a hostile page can nest elements as deep as it likes.
  const stack: Entry[] = [];
  const pushChildren = (of: Node, parent: Node, entry: Omit<Entry, 'node' | 'parent'>, closesContent = false) => {
    for (const child of composedChildrenReversed(of)) {
      const closed = entry.closed || (closesContent && (child as Element).localName !== 'summary');
      stack.push({ node: child, parent, closed, textShows: entry.textShows, depth: entry.depth });
    }
  };
  pushChildren(source.body, doc.body, { closed: false, textShows: showsText(source.body), depth: 0 });

  while (stack.length > 0) {
    const { node, parent, closed, textShows, depth } = stack.pop()!;
    if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) {
      if (!textShows) continue;
      const data = (node as CharacterData).data;
      grow(data.length);
      parent.appendChild(doc.createTextNode(data));
      continue;
    }
    if (!isElement(node)) continue;
    const tag = node.localName;
    if (SKIP.has(tag)) continue;
    const shows = textShowsIn(node, closed);
    if (shows === null) continue;

    if (isFrame(node)) {
      if (depth >= bounds.maxFrameDepth || frames >= bounds.maxFrames) continue;
      const inner = frameDocument(node);
      const remoteKey = frameKeys?.get(node);
      if (inner?.body) {
        frames++;
        const wrapper = parent.appendChild(doc.createElement('div'));
        pushChildren(inner.body, wrapper, { closed: false, textShows: showsText(inner.body), depth: depth + 1 });
      } else if (inner === null && remoteKey !== undefined) {
        frames++;
        form.remoteFrames.set(remoteKey, parent.appendChild(doc.createElement('div')));
      }
      continue;
    }

    // A slot is no element of its own in what a reader sees: its content stands in its place.
    if (isHtml(node, 'slot')) {
      pushChildren(node, parent, { closed, textShows: shows, depth });
      continue;
    }

    // An element that holds text alone (most paragraphs, list items, links) is copied whole, in one
    // native call: its text shows where the element's does, and nothing in it needs the walk.
    const textOnly = shows && node.childElementCount === 0 && node.shadowRoot === null;
    const copy = parent.appendChild(copyOf(node, textOnly));
    if (isHtml(node, 'img')) {
      const src = imageSource(node);
      copy.removeAttribute('srcset');
      copy.removeAttribute('data-src');
      if (src === null) copy.removeAttribute('src');
      else copy.setAttribute('src', src);
      continue;
    }
    // Inside a frame, a relative link is relative to the frame's document, not to the page.
    if (depth > 0 && isHtml(node, 'a') && node.hasAttribute('href')) copy.setAttribute('href', node.href);
    if (textOnly) continue;
    // A closed <details> shows its <summary> only, but the rest is still content (DESIGN).
    const closesContent = isHtml(node, 'details') && !node.open;
    pushChildren(node, copy, { closed, textShows: shows, depth }, closesContent);
  }
  return form;
}
