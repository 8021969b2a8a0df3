// The title a main-content extract starts with: the page's title without the site's name (or the
// author's) that <title> and many a sharing title append — "Clymer workshop manual review | MoreBikes"
// names the article as "Clymer workshop manual review". Pure: no DOM, so the unit tests run it as it is.
import type { PageMetadata } from '../shared/metadata';
import { wordsOf } from './words';

/** Separators between a title and the site's name, spaced as titles write them. */
const SEPARATOR = /\s+(?:[|\-–—»:]{1,2}|::)\s+/g;

const squeeze = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

type HeadingMetadata = Pick<PageMetadata, 'site_name' | 'canonical_url' | 'author'>;

/** The site's own names: its site_name and the main label of its host ("www.news-nation.in" → "newsnation"). */
function siteNames(metadata: HeadingMetadata, pageUrl: string): Set<string> {
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

/** Whether a title's last part is one of those names, or a domain name ("example.com"). */
function isTrailingName(part: string, names: Set<string>): boolean {
  if (/^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}$/u.test(part.trim())) return true;
  return names.has(squeeze(part));
}

/**
 * Whether a title's first part names the site ("NWX Magazin | Vertrauen …" on nwx.new-work.se): one
 * of its names, a domain name, or at most three words the first of which is one of its names.
 */
function isLeadingSiteName(part: string, names: Set<string>): boolean {
  if (isTrailingName(part, names)) return true;
  const words = wordsOf(part);
  return words.length <= 3 && names.has(squeeze(words[0] ?? ''));
}

/** `title` without trailing names or a leading site name; the title as it is when it has none, or is nothing but them. */
export function articleHeading(title: string, metadata: HeadingMetadata, pageUrl: string): string {
  const site = siteNames(metadata, pageUrl);
  // A title may end with the site's name or the article's author ("… whale strandings | Eleanor Ainge Roy").
  const author = squeeze(metadata.author ?? '');
  const names = author === '' ? site : new Set([...site, author]);
  let heading = title.trim();
  for (;;) {
    const separators = [...heading.matchAll(SEPARATOR)];
    const last = separators.at(-1);
    if (last?.index === undefined || last.index === 0) break;
    const tail = heading.slice(last.index + last[0].length);
    if (!isTrailingName(tail, names)) break;
    heading = heading.slice(0, last.index).trim();
  }
  const first = [...heading.matchAll(SEPARATOR)][0];
  if (first?.index === undefined || first.index === 0) return heading;
  const rest = heading.slice(first.index + first[0].length).trim();
  return rest !== '' && isLeadingSiteName(heading.slice(0, first.index), site) ? rest : heading;
}
