// Sitemaps (sitemaps.org): a `<urlset>` lists pages, a `<sitemapindex>` lists more sitemaps; either
// may come gzipped. Parsed with fast-xml-parser (pure JavaScript, runs in workerd); namespaces are
// dropped so `news:title` reads as `title`. A page's title is taken where the sitemap gives one
// (a news or video title), never made up.
import { XMLParser } from 'fast-xml-parser';
import { readUpTo } from './bounded-read.js';

/** sitemaps.org: at most 50,000 URLs and 50 MiB uncompressed per file. */
export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  url: string;
  title?: string;
}

export type Sitemap = { kind: 'urlset'; entries: SitemapEntry[] } | { kind: 'index'; sitemaps: string[] } | { kind: 'unknown' };

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
  processEntities: true,
});

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null && '#text' in value) return text((value as Record<string, unknown>)['#text']);
  return undefined;
}

/** A title a `<url>` carries in one of the common extensions (news, video). */
function entryTitle(url: Record<string, unknown>): string | undefined {
  for (const extension of ['news', 'video']) {
    const block = url[extension];
    const first = Array.isArray(block) ? block[0] : block;
    if (typeof first === 'object' && first !== null) {
      const title = text((first as Record<string, unknown>).title);
      if (title !== undefined) return title;
    }
  }
  return undefined;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

/** The sitemap a document holds; `unknown` when it is neither a urlset nor an index (or not XML). */
export function parseSitemap(xml: string): Sitemap {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch {
    return { kind: 'unknown' };
  }
  const urlset = document.urlset;
  if (typeof urlset === 'object' && urlset !== null) {
    const entries: SitemapEntry[] = [];
    for (const url of records((urlset as Record<string, unknown>).url).slice(0, MAX_SITEMAP_URLS)) {
      const loc = text(url.loc);
      if (loc === undefined) continue;
      const title = entryTitle(url);
      entries.push(title === undefined ? { url: loc } : { url: loc, title });
    }
    return { kind: 'urlset', entries };
  }
  const index = document.sitemapindex;
  if (typeof index === 'object' && index !== null) {
    const sitemaps = records((index as Record<string, unknown>).sitemap)
      .slice(0, MAX_SITEMAP_URLS)
      .flatMap((sitemap) => text(sitemap.loc) ?? []);
    return { kind: 'index', sitemaps };
  }
  return { kind: 'unknown' };
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * The text of a sitemap file: gunzipped when its bytes are gzip (by their magic number, whatever the
 * name or Content-Type says), at most `maxBytes` of it (undefined past that: a bomb is not read on).
 */
export async function sitemapText(bytes: Uint8Array, maxBytes = MAX_SITEMAP_BYTES): Promise<string | undefined> {
  if (!isGzip(bytes)) return bytes.length > maxBytes ? undefined : new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  try {
    const { bytes: text, over } = await readUpTo(stream, maxBytes);
    return over ? undefined : new TextDecoder().decode(text);
  } catch {
    return undefined; // a broken gzip stream is no sitemap
  }
}
