// The page's links and images (docs/api.md "Links, images and screenshots"), gathered from the
// reader form the read builds anyway: it already holds only what a reader sees, in document order,
// with open shadow roots, slots and frames (cross-origin ones grafted) where they stand, links
// absolute and images by the URL the browser chose. What the form cannot know is marked on its copies
// while it is built (an image's rendered size) or looked up after (whether the main-content finding
// keeps an entry: its copy carries a mark through the extraction).
import type { MainContent, MainExtract } from '../main-content/index';
import type { AttributeChanges, FormBuilder } from './reader-form';
import type { PageImage, PageLink, PageViews, Region, ViewRequest } from './protocol';

/** An image copy's rendered size, "width height" in CSS px: the copy has no layout of its own. */
const SIZE_ATTRIBUTE = 'data-page-fetch-size';
/**
 * An image map's links on its image's copy, as JSON `[[href, alt], …]`: Chromium lays out no box for
 * `<area>`, so the reader form has none, yet a reader clicks them on the image.
 */
const AREAS_ATTRIBUTE = 'data-page-fetch-areas';
/** An entry's copy, to find it again in the main content the extraction returns. */
const MARK_ATTRIBUTE = 'data-page-fetch-view';

/** Images rendered smaller than this, either way, are trackers, not pictures. */
const MIN_IMAGE_SIDE = 2;
/** Long enough for any real link text; a page cannot make one link swallow the answer. */
const MAX_TEXT_LENGTH = 300;

/** The links of the image map an image uses, absolute, as `[href, alt]` pairs. */
function mapAreas(img: HTMLImageElement): [string, string][] {
  const name = img.useMap.replace(/^#/, '');
  if (name === '') return [];
  const root = img.getRootNode() as Document | ShadowRoot;
  const map = [...root.querySelectorAll('map')].find((candidate) => candidate.getAttribute('name') === name || candidate.id === name);
  if (map === undefined) return [];
  return [...map.querySelectorAll('area[href]')].map((area) => [(area as HTMLAreaElement).href, area.getAttribute('alt') ?? '']);
}

/** The same builder, whose image copies carry their source's rendered size and the links of its image map. */
export function withImageSizes<N, B extends FormBuilder<N>>(builder: B): B {
  const copy = builder.copy;
  return {
    ...builder,
    copy: (parent: N, el: Element, changes: AttributeChanges | null) => {
      if (el.localName !== 'img') return copy(parent, el, changes);
      const img = el as HTMLImageElement;
      const areas = mapAreas(img);
      return copy(parent, el, {
        ...changes,
        [SIZE_ATTRIBUTE]: `${img.width} ${img.height}`,
        ...(areas.length === 0 ? {} : { [AREAS_ATTRIBUTE]: JSON.stringify(areas) }),
      });
    },
  };
}

function areasOf(img: Element): [string, string][] {
  try {
    const areas: unknown = JSON.parse(img.getAttribute(AREAS_ATTRIBUTE) ?? '[]');
    return Array.isArray(areas) ? (areas as [string, string][]) : [];
  } catch {
    return [];
  }
}

const LANDMARK_ROLES: Record<string, Region> = {
  navigation: 'navigation',
  banner: 'header',
  contentinfo: 'footer',
  complementary: 'aside',
};
const LANDMARK_ELEMENTS: Record<string, Region> = { nav: 'navigation', header: 'header', footer: 'footer', aside: 'aside' };

/** The innermost landmark around the element, by its role or its element. */
function landmarkOf(el: Element): Region {
  for (let node = el.parentElement; node !== null; node = node.parentElement) {
    const role = node.getAttribute('role')?.trim().toLowerCase();
    const region = (role && LANDMARK_ROLES[role]) || LANDMARK_ELEMENTS[node.localName];
    if (region) return region;
  }
  return 'other';
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_LENGTH);

/** A link's accessible text: its label, else its text with its images' alt, else its title. */
function linkText(link: Element): string {
  const label = collapse(link.getAttribute('aria-label') ?? '');
  if (label !== '') return label;
  // Without images inside, the text is the link's text nodes in order: one call rather than a walk.
  if (link.querySelector('img') === null) return collapse(link.textContent ?? '') || collapse(link.getAttribute('title') ?? '');
  const parts: string[] = [];
  const walker = link.ownerDocument.createTreeWalker(link, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) parts.push((node as Text).data);
    else if ((node as Element).localName === 'img') parts.push(` ${(node as Element).getAttribute('alt') ?? ''} `);
  }
  const text = collapse(parts.join(''));
  return text !== '' ? text : collapse(link.getAttribute('title') ?? '');
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The page's host name or one of its subdomains (ports never count). */
function isInternal(url: URL, pageHost: string): boolean {
  const host = url.hostname.toLowerCase();
  return host === pageHost || host.endsWith(`.${pageHost}`);
}

function imageSize(img: Element): [number, number] {
  const [width, height] = (img.getAttribute(SIZE_ATTRIBUTE) ?? '').split(' ').map(Number);
  return [width ?? 0, height ?? 0];
}

/** What was gathered, and the copies it came from, by mark. */
export interface GatheredViews {
  views: PageViews;
  /** Every entry by its mark, to set its region to `main` once the main content is known. */
  entries: Map<string, { region: Region }>;
}

/**
 * The links and images of a reader form in document order, each distinct URL once (its first
 * occurrence), every entry's copy marked so that `markMainContent` can find it in the extract.
 */
export function gatherViews(form: Document, request: ViewRequest, pageUrl: string): GatheredViews {
  const pageHost = new URL(pageUrl).hostname.toLowerCase();
  const links: PageLink[] = [];
  const images: PageImage[] = [];
  const seenLinks = new Set<string>();
  const seenImages = new Set<string>();
  const entries = new Map<string, { region: Region }>();
  const body = form.body;
  /** An image map's links and the image share one copy: its mark lists them all. */
  const mark = (el: Element, key: string, entry: { region: Region }) => {
    el.setAttribute(MARK_ATTRIBUTE, `${el.getAttribute(MARK_ATTRIBUTE) ?? ''} ${key}`.trim());
    entries.set(key, entry);
  };
  const addLink = (el: Element, href: string, text: () => string) => {
    const url = httpUrl(href);
    if (url === null || seenLinks.has(url.href)) return;
    seenLinks.add(url.href);
    const link: PageLink = { url: url.href, text: text(), region: landmarkOf(el), internal: isInternal(url, pageHost) };
    mark(el, `l${links.length}`, link);
    links.push(link);
  };
  if (body !== null) {
    for (const el of body.querySelectorAll('a[href], img')) {
      if (el.localName === 'img') {
        // An image map's links stand where its image does (their region is the image's).
        if (request.links) for (const [href, alt] of areasOf(el)) addLink(el, href, () => collapse(alt));
        if (!request.images) continue;
        const url = httpUrl((el as HTMLImageElement).src);
        const [width, height] = imageSize(el);
        if (url === null || seenImages.has(url.href) || width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) continue;
        seenImages.add(url.href);
        const image: PageImage = { url: url.href, alt: collapse(el.getAttribute('alt') ?? ''), width, height, region: landmarkOf(el) };
        mark(el, `i${images.length}`, image);
        images.push(image);
        continue;
      }
      if (request.links) addLink(el, (el as HTMLAnchorElement).href, () => linkText(el));
    }
  }
  return { views: { ...(request.links ? { links } : {}), ...(request.images ? { images } : {}) }, entries };
}

/** Entries whose copies are among `elements` stand in `main`. */
function markMain(gathered: GatheredViews, elements: Iterable<Element>): void {
  for (const el of elements) {
    for (const key of (el.getAttribute(MARK_ATTRIBUTE) ?? '').split(' ')) {
      const entry = gathered.entries.get(key);
      if (entry !== undefined) entry.region = 'main';
    }
  }
}

/**
 * Entries whose URL the main content links or shows stand in `main`: for content parsed from a
 * second opinion's markup, which carries none of the copies' marks.
 */
function markMainByUrl(gathered: GatheredViews, content: Element | Document): void {
  const urls = new Set<string>();
  for (const el of content.querySelectorAll('a[href], img[src]')) {
    const url = httpUrl(el.localName === 'img' ? (el as HTMLImageElement).src : (el as HTMLAnchorElement).href);
    if (url !== null) urls.add(url.href);
  }
  for (const entry of [...(gathered.views.links ?? []), ...(gathered.views.images ?? [])]) if (urls.has(entry.url)) entry.region = 'main';
}

/** Entries whose copies the main content holds stand in `main`; the marks are taken off the extract. */
export function markMainContent(gathered: GatheredViews, content: MainContent | null): void {
  if (content === null) return;
  if (content.fromMarkup) markMainByUrl(gathered, content.doc);
  else markMain(gathered, content.doc.querySelectorAll(`[${MARK_ATTRIBUTE}]`));
  unmark(content.doc);
}

/**
 * The same for a read whose output is the whole page: the main content is found
 * (main-content/index.ts) and looked in as the extraction leaves it, neither dressed as a document
 * nor unmarked, since it is dropped after.
 */
export function markMainRegions(gathered: GatheredViews, found: MainExtract | null): void {
  if (found === null) return;
  const extract = found.content;
  const selector = `[${MARK_ATTRIBUTE}]`;
  if (found.fromMarkup) markMainByUrl(gathered, extract);
  else
    markMain(gathered, extract.matches(selector) ? [extract, ...extract.querySelectorAll(selector)] : extract.querySelectorAll(selector));
}

/** Takes the views' own attributes off a tree that becomes output. */
export function unmark(doc: Document): void {
  for (const el of doc.querySelectorAll(`[${MARK_ATTRIBUTE}], [${SIZE_ATTRIBUTE}]`)) {
    el.removeAttribute(MARK_ATTRIBUTE);
    el.removeAttribute(SIZE_ATTRIBUTE);
    el.removeAttribute(AREAS_ATTRIBUTE);
  }
}
