// URLs in the output: resolution against the page (options.url, then `<base href>`), the
// scheme check that turns `javascript:` links into plain text, and the markdown syntax of
// destinations and titles. Which URL an image is written with: image-source.ts.

import { isElement } from './dom';
import type { DomElement } from './dom';
import { collapseWhitespace } from './text';

function tryUrl(href: string, base?: string): URL | undefined {
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

/**
 * The first `<base href>` where a parser puts it: in `<head>`, or at the top of `<body>` for
 * a fragment. Only these children are scanned: a whole-document selector query would cost
 * as much as a good part of the conversion.
 */
function findBaseHref(root: DomElement): string | undefined {
  for (let section = root.firstChild; section !== null; section = section.nextSibling) {
    if (!isElement(section) || (section.localName !== 'head' && section.localName !== 'body')) continue;
    for (let c = section.firstChild; c !== null; c = c.nextSibling) {
      if (isElement(c) && c.localName === 'base') {
        const href = c.getAttribute('href');
        if (href !== null) return href.trim();
      }
    }
  }
  return undefined;
}

/** The base for relative URLs: `<base href>` resolved against the page URL, else the page URL. */
export function documentBase(root: DomElement, pageUrl: string | undefined): string | undefined {
  const page = pageUrl ? tryUrl(pageUrl)?.href : undefined;
  const baseHref = findBaseHref(root);
  if (baseHref) {
    const base = tryUrl(baseHref, page);
    if (base) return base.href;
  }
  return page;
}

/** Absolute form of `href` when it can be resolved; otherwise `href` itself (trimmed). */
export function resolveUrl(href: string, base: string | undefined): string {
  const trimmed = href.trim();
  if (trimmed === '' || base === undefined) return trimmed;
  return tryUrl(trimmed, base)?.href ?? trimmed;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const SCHEME_NOISE = /[\u0000-\u0020\u007f]+/g;

/** `javascript:` and `vbscript:` URLs run code instead of navigating; they are not links. */
export function isScriptUrl(url: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside the scheme.
  const head = url.slice(0, 64).replace(SCHEME_NOISE, '').toLowerCase();
  return head.startsWith('javascript:') || head.startsWith('vbscript:');
}

/** A link destination: bare with parentheses escaped, or `<...>` when it has spaces or controls. */
export function formatDestination(url: string): string {
  if (url === '') return '<>';
  if (isPlainDestination(url)) return url;
  const out: string[] = [];
  let needsAngles = false;
  for (let i = 0; i < url.length; i++) {
    const c = url.charAt(i);
    const code = url.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) {
      needsAngles = needsAngles || code === 0x20;
      // Line breaks and controls cannot appear in a destination at all.
      out.push(code === 0x20 ? ' ' : encodeURIComponent(c));
    } else if (c === '<' || c === '>') {
      out.push(encodeURIComponent(c));
    } else if (c === '\\' || c === '(' || c === ')') {
      out.push('\\', c);
    } else {
      out.push(c);
    }
  }
  const body = out.join('');
  return needsAngles ? `<${body}>` : body;
}

/** No character that needs escaping or angle brackets (the common case, checked in one scan). */
function isPlainDestination(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || code === 60 || code === 62 || code === 92 || code === 40 || code === 41) return false;
  }
  return true;
}

/** ` "title"` (with the leading space), or '' when there is no title. */
export function formatTitle(title: string | null): string {
  if (title === null) return '';
  const collapsed = collapseWhitespace(title).trim();
  if (collapsed === '') return '';
  return ` "${collapsed.replace(/["\\]/g, '\\$&')}"`;
}
