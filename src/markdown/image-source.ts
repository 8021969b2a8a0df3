// Which URL an image is written with (docs/reader-view.md "Lazy images in the page"): the one owner
// of the lazy loaders' attributes and of the two orders they are read in. In a rendered page the
// browser has chosen a source and a loader's attribute that it has not swapped in yet wins (the
// page was loaded in view, so the loader was about to show it): the reader form asks
// `renderedImageSource`. In a parsed document nothing chose and nothing tells a placeholder from a
// real low-resolution `src`, so `src` stays first unless it is a `data:` placeholder: the serializer
// asks `writtenImageSource`.

import type { DomElement } from './dom';

/** Where lazy loaders keep an image's real source until they swap it into `src`. */
export const LAZY_SOURCE_ATTRIBUTES: readonly string[] = ['data-src', 'data-lazy-src', 'data-original'];

/** An inline image (a placeholder, a blob): never the source a reader is sent to. */
export function isDataUrl(url: string): boolean {
  return url.trimStart().slice(0, 5).toLowerCase() === 'data:';
}

/** The first lazy loader's attribute holding a URL (not empty, not a `data:` placeholder), trimmed; null when none does. */
export function lazySource(img: DomElement): string | null {
  for (const name of LAZY_SOURCE_ATTRIBUTES) {
    const value = img.getAttribute(name)?.trim();
    if (value && !isDataUrl(value)) return value;
  }
  return null;
}

/** The image's source as its attributes name it: `src`, unless missing or a `data:` placeholder and a lazy loader's attribute or a srcset has one. */
export function writtenImageSource(img: DomElement): string {
  const src = img.getAttribute('src')?.trim() ?? '';
  if (src !== '' && !isDataUrl(src)) return src;
  const lazy = lazySource(img);
  if (lazy !== null) return lazy;
  const srcset = img.getAttribute('srcset') ?? img.getAttribute('data-srcset');
  if (srcset) {
    const first = firstSrcsetUrl(srcset);
    if (first) return first;
  }
  return src;
}

function firstSrcsetUrl(srcset: string): string {
  // URLs in srcset cannot contain whitespace, so the first candidate's URL is the first token.
  const s = srcset.trimStart();
  let end = 0;
  while (end < s.length && !/\s/.test(s.charAt(end))) end++;
  const url = s.slice(0, end);
  return url.endsWith(',') ? url.slice(0, -1) : url;
}

/** An image of a rendered page: what the browser resolved and chose besides its attributes. */
export interface RenderedImage extends DomElement {
  /** The URL the browser chose (from srcset or src); '' when it chose none. */
  readonly currentSrc: string;
  /** `src` resolved against the document's base URL. */
  readonly src: string;
  readonly baseURI: string;
}

/** Origin and path of a URL: a loader that swaps in its real source may add a query (a width) or a fragment. */
function resourceOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url;
  }
}

function absolute(url: string, base: string): string | null {
  try {
    return new URL(url, base).href;
  } catch {
    return null;
  }
}

/**
 * The image's source in a rendered page: a lazy loader's real source it has not swapped in, else the
 * URL the browser chose (currentSrc), else src; null when it has none. An image whose source is its
 * real source with a query of the loader's (`?w=800`) was swapped in: the loader's own URL is kept.
 */
export function renderedImageSource(img: RenderedImage): string | null {
  const lazy = lazySource(img);
  const real = lazy === null ? null : absolute(lazy, img.baseURI);
  if (real !== null && resourceOf(real) !== resourceOf(img.src)) return real;
  const current = img.currentSrc;
  if (current && !isDataUrl(current)) return current;
  return img.getAttribute('src') === null ? null : img.src;
}
