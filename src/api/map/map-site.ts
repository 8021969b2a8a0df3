// POST /api/map (docs/api.md "Sites"): the URLs of a site found quickly — its sitemaps (named in
// robots.txt, else /sitemap.xml) and the links of the rendered start page — in scope, outside the trap
// bounds, deduped by normal form, allowed by robots.txt, filtered and ordered by `search`, at most
// `limit`. No page but the start page is fetched, and that one through the same fetch as /api/fetch.
import type { Context } from 'hono';
import { targetGuard } from '../../guard/policy.js';
import { pageLinks, type PageLink } from '../../sites/page-links.js';
import { RobotsBook } from '../../sites/robots-book.js';
import { inScope, isTrapUrl } from '../../sites/scope.js';
import { searchLinks } from '../../sites/search.js';
import { siteSitemaps, sitemapEntries, type SiteFileOptions } from '../../sites/site-files.js';
import { normalizeUrl, parseHttpUrl } from '../../sites/url-normal-form.js';
import type { AppEnv } from '../app-env.js';
import { fetchPage } from '../fetch-page.js';
import { parseFetchRequest } from '../fetch-request.js';
import type { MapRequest } from './map-request.js';

export interface MapLink {
  url: string;
  title?: string;
}

/** Each site file's own bound; the whole map is bounded by MAX_WAIT_MS. */
const SITE_FILE_TIMEOUT_MS = 10_000;
/** Sitemap entries read at most before filtering: enough for the largest limit after what scope drops. */
const MAX_SITEMAP_CANDIDATES = 50_000;

/** The links of the rendered start page, with the start page's final URL first. */
async function startPageLinks(c: Context<AppEnv>, url: string): Promise<PageLink[]> {
  const request = parseFetchRequest({ url, output_format: 'html' }, c.get('config'));
  const { content, page } = await fetchPage(c, request);
  return [{ url: page.finalUrl }, ...pageLinks(content, page.finalUrl).links];
}

/** The map of a validated request. @throws ApiError forbidden_target, or the start page's own error. */
export async function mapSite(c: Context<AppEnv>, request: MapRequest): Promise<{ links: MapLink[] }> {
  const config = c.get('config');
  const guard = targetGuard({ allowPrivateNetwork: config.allowPrivateNetwork });
  guard.assertUrlAllowed(request.url);
  const start = new URL(request.url);
  const files: SiteFileOptions = { guard, timeoutMs: SITE_FILE_TIMEOUT_MS, deadline: Date.now() + config.maxWaitMs };
  const robots = new RobotsBook(files);
  const startRobots = (await robots.policyFor(start))!;

  const [fromSitemaps, fromPage] = await Promise.all([
    request.sitemap === 'skip' ? [] : sitemapEntries(siteSitemaps(start, startRobots), MAX_SITEMAP_CANDIDATES, files),
    // A start page robots.txt disallows is not rendered: its links are not the map's to take.
    request.sitemap === 'only' || !startRobots.allows(start.href) ? [] : startPageLinks(c, request.url),
  ]);

  const found = new Map<string, MapLink>();
  // The start page first, then the sitemaps' entries, then the start page's links (their text as title).
  const candidates: MapLink[] = [
    ...fromPage.slice(0, 1),
    ...fromSitemaps,
    ...fromPage.slice(1).map(({ url, text }) => ({ url, title: text })),
  ];
  for (const candidate of candidates) {
    const url = parseHttpUrl(candidate.url, start.href);
    if (url === undefined || !inScope(url, start, request.includeSubdomains) || isTrapUrl(url)) continue;
    const key = normalizeUrl(url.href)!;
    const known = found.get(key);
    if (known !== undefined) {
      if (known.title === undefined && candidate.title !== undefined) known.title = candidate.title;
      continue;
    }
    found.set(key, candidate.title === undefined ? { url: key } : { url: key, title: candidate.title });
  }

  const allowed: MapLink[] = [];
  for (const link of found.values()) if (await robots.allows(new URL(link.url))) allowed.push(link);
  const ordered = request.search === undefined ? allowed : searchLinks(allowed, request.search);
  return { links: ordered.slice(0, request.limit) };
}
