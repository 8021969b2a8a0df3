// The reader form of a document: what a person sees, copied into a new tree that the markdown
// serializer then walks (plain objects, light-tree.ts, or an inert document for main-content
// extraction, dom-form.ts). The composed tree (an open shadow root in place of its host's children,
// a slot filled with what is assigned to it, else its fallback), same-origin and srcdoc iframes'
// documents where the iframe stands, elements the browser renders no box for left out (decided by
// the browser's own style and layout), and so are those under `visibility: hidden` with nothing
// inside that shows again, images with the URL the browser chose. A cross-origin
// iframe, out of this world's reach, becomes a placeholder the caller grafts its frame's own reader
// form into. With selected parts (selection.ts), an excluded element is left out with all inside it,
// and with include selectors only matched elements are copied (with all inside them): an element
// outside every match is passed through, its children looked at in its place.
import { renderedImageSource } from '../markdown/image-source';
import { isTexAnnotation } from '../markdown/math-rules';
import { iconLinkName } from './link-name';
import { FRAME_KEYS_GLOBAL, type ReadBounds } from './protocol';
import type { SelectedParts } from './selection';
import { TOO_LARGE } from './too-large';

/** Never content: scripts, styles, fallbacks for no scripting, inert templates. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta']);

/** A hidden table cell still takes its place in its row: left out, it would shift the cells after it. */
const KEEPS_PLACE = new Set(['td', 'th']);

/** Attributes a copy gets instead of its source's (null: left out). */
export type AttributeChanges = Record<string, string | null>;

/** Makes the copy: nodes of type N in a new tree. */
export interface FormBuilder<N> {
  /** Where the content goes: the new tree's body. */
  readonly body: N;
  text(parent: N, data: string): void;
  /** A copy of `source` alone (its attributes, no children) at the end of `parent`. */
  copy(parent: N, source: Element, changes: AttributeChanges | null): N;
  /** A new element (a frame's content rebuilt where its iframe stands). */
  create(parent: N, localName: string, attributes: string[]): N;
  /** A new empty block, where a frame's content goes. */
  block(parent: N): N;
  /** Removes the copy when nothing was put in it. */
  dropIfEmpty(node: N): void;
}

export interface ReaderForm<N> {
  /** Where the content went. */
  body: N;
  /** Placeholders of cross-origin frames, by the key the caller registered for each. */
  remoteFrames: Map<string, N>;
}

interface Entry<N> {
  node: Node;
  /** Where the copy goes. */
  parent: N;
  /** Inside a closed <details>, below its <summary>: nothing is laid out there. */
  closed: boolean;
  /** Whether text shows here (visibility: hidden hides it; a descendant may show again). */
  textShows: boolean;
  /** How many iframe documents this node is nested in. */
  depth: number;
  /** Inside an element the include selectors matched (or there are none): copied. */
  picked: boolean;
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

/**
 * A closed off-canvas drawer or dialog (docs/api.md "What the rendered page contains": not content):
 * marked aria-hidden="true" and lying wholly outside the area a reader can scroll to (translated off
 * an edge). Geometry is read only for elements so marked.
 */
function isClosedOffCanvas(el: Element): boolean {
  if (el.getAttribute('aria-hidden') !== 'true') return false;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  const view = el.ownerDocument.defaultView;
  const root = el.ownerDocument.documentElement;
  if (view === null || root === null) return false;
  const left = -view.scrollX;
  const top = -view.scrollY;
  return box.right <= left || box.bottom <= top || box.left >= left + root.scrollWidth || box.top >= top + root.scrollHeight;
}

const MATHML = 'http://www.w3.org/1998/Math/MathML';

/**
 * A MathML annotation holding its formula as TeX (the serializer's rule); the page knows namespaces,
 * so an HTML element that happens to be named `annotation` is none.
 */
const isMathTex = (el: Element) => el.namespaceURI === MATHML && isTexAnnotation(el);

/**
 * What a link's copy gets instead of its own attributes: inside a frame, a relative link is
 * relative to the frame's document, not to the page; an icon link, the name it goes by.
 */
function linkChanges(link: HTMLAnchorElement, inFrame: boolean): AttributeChanges | null {
  const name = iconLinkName(link);
  if (name === null) return inFrame ? { href: link.href } : null;
  return inFrame ? { href: link.href, 'aria-label': name } : { 'aria-label': name };
}

// Nodes of a same-origin iframe's document come from another realm (the frame's own isolated world),
// where `instanceof` against this world's classes fails: elements are told apart by their names.
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const isElement = (node: Node): node is Element => node.nodeType === Node.ELEMENT_NODE;
function isHtml<K extends keyof HTMLElementTagNameMap>(node: Node, tag: K): node is HTMLElementTagNameMap[K] {
  return isElement(node) && node.localName === tag && node.namespaceURI === HTML_NS;
}

/** A slot's assigned nodes (flattened through nested slots), or null when it shows its fallback content. */
function assignedTo(node: Node): Node[] | null {
  if (!isHtml(node, 'slot')) return null;
  const assigned = node.assignedNodes({ flatten: true });
  return assigned.length > 0 ? assigned : null;
}

const isTextNode = (node: Node) => node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE;

function frameDocument(frame: HTMLIFrameElement | HTMLFrameElement): Document | null {
  try {
    return frame.contentDocument;
  } catch {
    return null;
  }
}

const isFrame = (el: Element): el is HTMLIFrameElement | HTMLFrameElement =>
  (el.localName === 'iframe' || el.localName === 'frame') && el.namespaceURI === HTML_NS;

/** Copies what a reader sees of `source`'s body with `builder`, only its selected parts when given. */
export function readerForm<N>(source: Document, bounds: ReadBounds, builder: FormBuilder<N>, parts?: SelectedParts): ReaderForm<N> {
  const form: ReaderForm<N> = { body: builder.body, remoteFrames: new Map() };
  if (source.body === null) return form;
  const frameKeys = (globalThis as Record<string, unknown>)[FRAME_KEYS_GLOBAL] as Map<Element, string> | undefined;
  let size = 0;
  let frames = 0;
  const grow = (chars: number) => {
    size += chars;
    if (size > bounds.maxChars) throw TOO_LARGE;
  };
  // The size counts text and attributes whichever tree is built, so a page is too large for every kind of read alike.
  const copyOf = (parent: N, el: Element, changes: AttributeChanges | null): N => {
    // (hasAttributes first: most elements have none, and `attributes` makes a wrapper object.)
    if (el.hasAttributes()) {
      const { attributes } = el;
      for (let i = 0; i < attributes.length; i++) grow(attributes[i]!.name.length + attributes[i]!.value.length + 4);
    }
    return builder.copy(parent, el, changes);
  };
  const copyText = (parent: N, data: string) => {
    grow(data.length);
    builder.text(parent, data);
  };
  // Copies of elements under `visibility: hidden`, in the order they were made: kept only as the
  // frame of something inside them that shows again (a `visible` descendant), dropped otherwise,
  // so a collapsed menu leaves no empty links or items behind.
  const unseen: N[] = [];

  // An explicit stack, not recursion: a hostile page can nest elements as deep as it likes.
  const stack: Entry<N>[] = [];
  /** Pushes the node's children in the composed tree, last first: a slot's assigned nodes, a shadow root's, else its own. */
  const pushChildren = (of: Node, parent: N, entry: Omit<Entry<N>, 'node' | 'parent'>, closesContent = false) => {
    const push = (child: Node) => {
      const closed = entry.closed || (closesContent && (child as Element).localName !== 'summary');
      stack.push({ node: child, parent, closed, textShows: entry.textShows, depth: entry.depth, picked: entry.picked });
    };
    const assigned = assignedTo(of);
    if (assigned !== null) {
      for (let i = assigned.length - 1; i >= 0; i--) push(assigned[i]!);
      return;
    }
    const from = (of as Element).shadowRoot ?? of;
    for (let child = from.lastChild; child !== null; child = child.previousSibling) push(child);
  };
  // A frame read in its own world (a cross-origin one, grafted in later) is a frame from its first element.
  const view = source.defaultView;
  const readsAFrame = view !== null && view.top !== null && view.top !== undefined && view !== view.top;
  const included = parts?.included ?? null;
  const wholeBody =
    included === null || included.has(source.body) || (source.documentElement !== null && included.has(source.documentElement));
  pushChildren(source.body, form.body, { closed: false, textShows: showsText(source.body), depth: 0, picked: wholeBody });

  while (stack.length > 0) {
    const { node, parent, closed, textShows, depth, picked: insideMatch } = stack.pop()!;
    if (isTextNode(node)) {
      if (!textShows || !insideMatch) continue;
      copyText(parent, (node as CharacterData).data);
      continue;
    }
    if (!isElement(node)) continue;
    const tag = node.localName;
    if (SKIP.has(tag)) continue;
    // A TeX annotation is never rendered, yet it is how markdown writes its formula (docs/api.md
    // "What the rendered page contains": MathML).
    const shows = isMathTex(node) ? true : textShowsIn(node, closed);
    if (shows === null) continue;
    if (isClosedOffCanvas(node)) continue;
    if (parts?.excluded.has(node)) continue;
    const picked = insideMatch || included?.has(node) === true;
    // Outside every match: not copied, but a match may lie below it (in its shadow root or slot too).
    // A closed <details> shows its <summary> only, but the rest is still content (docs/api.md "What
    // the rendered page contains").
    const closesContent = isHtml(node, 'details') && !node.open;
    if (!picked) {
      if (!isFrame(node)) pushChildren(node, parent, { closed, textShows: shows, depth, picked }, closesContent);
      continue;
    }

    if (isFrame(node)) {
      if (depth >= bounds.maxFrameDepth || frames >= bounds.maxFrames) continue;
      const inner = frameDocument(node);
      const remoteKey = frameKeys?.get(node);
      if (inner?.body) {
        frames++;
        pushChildren(inner.body, builder.block(parent), {
          closed: false,
          textShows: showsText(inner.body),
          depth: depth + 1,
          picked,
        });
      } else if (inner === null && remoteKey !== undefined) {
        frames++;
        form.remoteFrames.set(remoteKey, builder.block(parent));
      }
      continue;
    }

    // A slot is no element of its own in what a reader sees: its content stands in its place.
    if (isHtml(node, 'slot')) {
      pushChildren(node, parent, { closed, textShows: shows, depth, picked });
      continue;
    }

    if (isHtml(node, 'img')) {
      const image = copyOf(parent, node, { srcset: null, 'data-src': null, src: renderedImageSource(node) });
      if (!shows) unseen.push(image);
      continue;
    }
    // Inside a frame, a relative link is relative to the frame's document, not to the page.
    const copy = copyOf(parent, node, isHtml(node, 'a') && node.hasAttribute('href') ? linkChanges(node, depth > 0 || readsAFrame) : null);
    if (!shows && !KEEPS_PLACE.has(tag)) unseen.push(copy);
    // An element that holds text alone (most paragraphs, list items, links) takes its text at once,
    // off the stack: it shows where the element's does, and nothing in it needs the walk.
    if (shows && node.childElementCount === 0 && node.shadowRoot === null) {
      for (let child = node.firstChild; child !== null; child = child.nextSibling) {
        if (isTextNode(child)) copyText(copy, (child as CharacterData).data);
      }
      continue;
    }
    pushChildren(node, copy, { closed, textShows: shows, depth, picked }, closesContent);
  }
  // Last made first: an element's descendants are settled before it is.
  for (let i = unseen.length - 1; i >= 0; i--) builder.dropIfEmpty(unseen[i]!);
  return form;
}
