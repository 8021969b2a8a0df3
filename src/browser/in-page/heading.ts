// The title a main-content extract starts with: the page's title without the site's name that
// <title> (and many a sharing title) appends — "Clymer workshop manual review | MoreBikes" names the
// article as "Clymer workshop manual review". Pure: no DOM, so the unit tests run it as it is.
import type { PageMetadata } from '../../metadata';

/** Separators between a title and the site's name, spaced as titles write them. */
const SEPARATOR = /\s+(?:[|\-–—»:]{1,2}|::)\s+/g;

const squeeze = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A site's own names: its site_name, and the main label of its host ("www.news-nation.in" → "newsnation"). */
function siteNames(metadata: Pick<PageMetadata, 'site_name' | 'canonical_url'>, pageUrl: string): Set<string> {
  const names = new Set<string>();
  if (metadata.site_name) names.add(squeeze(metadata.site_name));
  for (const url of [metadata.canonical_url, pageUrl]) {
    try {
      const labels = new URL(url ?? '').hostname.replace(/^www\./, '').split('.');
      if (labels.length >= 2 && labels[0]) names.add(squeeze(labels[0]));
    } catch {
      // no URL to learn a name from
    }
  }
  names.delete('');
  return names;
}

/** Whether a title's last part is the site's name: one of its names, or a domain name ("example.com"). */
function isSiteName(part: string, names: Set<string>): boolean {
  if (/^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}$/u.test(part.trim())) return true;
  return names.has(squeeze(part));
}

/** `title` without a trailing site name; the title as it is when it has none, or is nothing but it. */
export function articleHeading(title: string, metadata: Pick<PageMetadata, 'site_name' | 'canonical_url'>, pageUrl: string): string {
  const names = siteNames(metadata, pageUrl);
  let heading = title.trim();
  for (;;) {
    const separators = [...heading.matchAll(SEPARATOR)];
    const last = separators.at(-1);
    if (last?.index === undefined || last.index === 0) return heading;
    const tail = heading.slice(last.index + last[0].length);
    if (!isSiteName(tail, names)) return heading;
    heading = heading.slice(0, last.index).trim();
  }
}
