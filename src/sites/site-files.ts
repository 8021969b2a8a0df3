// A site's own files — robots.txt and sitemaps — fetched with plain fetch() from the Worker, not the
// browser: each hop of a redirect passes the same private-network guard as a target (src/guard/),
// at most five hops are followed (RFC 9309 2.3.1.2), and a body is read up to a bound, never whole.
import type { TargetGuard } from '../guard/policy.js';
import { MAX_ROBOTS_BYTES, robotsPolicy, robotsUrlOf, type RobotsPolicy } from './robots.js';
import { MAX_SITEMAP_BYTES, parseSitemap, sitemapText, type SitemapEntry } from './sitemap.js';
import { readUpTo } from './bounded-read.js';
import { parseHttpUrl } from './url-normal-form.js';

const MAX_REDIRECTS = 5;
/** Sitemap files one discovery reads at most (indexes included): a site cannot make it read forever. */
export const MAX_SITEMAP_FILES = 50;
/** Index nesting followed: an index may name indexes (against the protocol, but seen in the wild) once. */
const MAX_INDEX_DEPTH = 2;
const SITE_FILE_USER_AGENT = 'Mozilla/5.0 (compatible; PageFetch/1.0)';

export interface SiteFileOptions {
  guard: TargetGuard;
  /** Bound on each file's request, in ms. */
  timeoutMs: number;
  /** Epoch ms past which no file is started and a file under way is given up. */
  deadline?: number;
}

/** The time a file may still take: its own bound, cut at the deadline. */
function timeLeft(options: SiteFileOptions): number {
  return options.deadline === undefined ? options.timeoutMs : Math.min(options.timeoutMs, options.deadline - Date.now());
}

export type SiteFile = { status: number; bytes: Uint8Array; finalUrl: string } | { status: 'unreachable' };

/** GETs a site file, following redirects through the guard; unreachable when refused, failed or timed out. */
export async function fetchSiteFile(url: string, maxBytes: number, options: SiteFileOptions): Promise<SiteFile> {
  const budget = timeLeft(options);
  if (budget <= 0) return { status: 'unreachable' };
  const signal = AbortSignal.timeout(budget);
  let current = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      options.guard.assertUrlAllowed(current);
      const response = await fetch(current, { redirect: 'manual', signal, headers: { 'User-Agent': SITE_FILE_USER_AGENT } });
      const location = response.headers.get('Location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = parseHttpUrl(location, current);
        if (next === undefined) return { status: 'unreachable' };
        current = next.href;
        continue;
      }
      const bytes = response.body === null ? new Uint8Array() : (await readUpTo(response.body, maxBytes)).bytes;
      return { status: response.status, bytes, finalUrl: current };
    }
    // Redirects that never end: the file is unavailable, which RFC 9309 reads as a 4xx.
    return { status: 404, bytes: new Uint8Array(), finalUrl: current };
  } catch {
    return { status: 'unreachable' };
  }
}

/** The robots policy of the origin of `url`. */
export async function readRobots(url: URL, options: SiteFileOptions): Promise<RobotsPolicy> {
  const robotsUrl = robotsUrlOf(url);
  const file = await fetchSiteFile(robotsUrl, MAX_ROBOTS_BYTES, options);
  if (file.status === 'unreachable') return robotsPolicy(robotsUrl, file);
  return robotsPolicy(robotsUrl, { status: file.status, body: new TextDecoder().decode(file.bytes) });
}

/**
 * The page entries of the sitemaps at `urls`, indexes followed, in order, at most `limit` of them and
 * at most MAX_SITEMAP_FILES files read; a file that fails or is not a sitemap is passed over.
 */
export async function sitemapEntries(urls: readonly string[], limit: number, options: SiteFileOptions): Promise<SitemapEntry[]> {
  const entries: SitemapEntry[] = [];
  const visited = new Set<string>();
  let pending = urls.map((url) => ({ url, depth: 0 }));
  while (pending.length > 0 && entries.length < limit && visited.size < MAX_SITEMAP_FILES && timeLeft(options) > 0) {
    const { url, depth } = pending.shift()!;
    if (visited.has(url)) continue;
    visited.add(url);
    const file = await fetchSiteFile(url, MAX_SITEMAP_BYTES, options);
    if (file.status === 'unreachable' || file.status < 200 || file.status >= 300) continue;
    const text = await sitemapText(file.bytes);
    if (text === undefined) continue;
    const sitemap = parseSitemap(text);
    if (sitemap.kind === 'urlset') {
      entries.push(...sitemap.entries.slice(0, limit - entries.length));
    } else if (sitemap.kind === 'index' && depth < MAX_INDEX_DEPTH) {
      const named = sitemap.sitemaps.flatMap((loc) => parseHttpUrl(loc, file.finalUrl)?.href ?? []);
      pending = [...pending, ...named.map((loc) => ({ url: loc, depth: depth + 1 }))];
    }
  }
  return entries;
}

/** The sitemaps a site names: its robots.txt `Sitemap:` lines, else `/sitemap.xml`. */
export function siteSitemaps(start: URL, robots: RobotsPolicy): string[] {
  return robots.sitemaps.length > 0 ? robots.sitemaps : [new URL('/sitemap.xml', start.origin).href];
}
