// robots.txt as RFC 9309 reads it (docs/api.md "Sites", Politeness), for one origin: the group for the
// product token `PageFetch`, else `*`; the longest matching rule wins and `Allow` wins a tie
// (robots-parser implements both, and merges groups that name the same agent); a 4xx answer allows
// everything, a 5xx or unreachable one disallows everything. Only the first 500 KiB is read, the
// least RFC 9309 asks a crawler to parse.
import robotsParser from 'robots-parser';

/** The product token the crawler looks for in `User-agent` lines. */
export const ROBOTS_USER_AGENT = 'PageFetch';
export const MAX_ROBOTS_BYTES = 500 * 1024;

export interface RobotsPolicy {
  /** Whether a URL of this origin may be fetched. */
  allows(url: string): boolean;
  /** `Crawl-delay` of the group that applies, in ms; undefined when it gives none. */
  crawlDelayMs?: number;
  /** `Sitemap:` lines, absolute. */
  sitemaps: string[];
}

/** What fetching an origin's robots.txt gave: an HTTP answer (after redirects) or nothing at all. */
export type RobotsAnswer = { status: number; body: string } | { status: 'unreachable' };

const ALLOW_ALL: RobotsPolicy = { allows: () => true, sitemaps: [] };
const DISALLOW_ALL: RobotsPolicy = { allows: () => false, sitemaps: [] };

/** The origin's robots.txt URL. */
export function robotsUrlOf(url: URL): string {
  return new URL('/robots.txt', url.origin).href;
}

/** The policy an origin's robots.txt answer sets; `robotsUrl` names the origin it governs. */
export function robotsPolicy(robotsUrl: string, answer: RobotsAnswer): RobotsPolicy {
  if (answer.status === 'unreachable' || answer.status >= 500) return DISALLOW_ALL;
  // RFC 9309 2.3.1.3: an unavailable robots.txt (4xx, or redirects that never end) allows all.
  if (answer.status < 200 || answer.status >= 300) return ALLOW_ALL;
  const robots = robotsParser(robotsUrl, answer.body.slice(0, MAX_ROBOTS_BYTES));
  const delayS = robots.getCrawlDelay(ROBOTS_USER_AGENT);
  return {
    // A URL of another origin is not this file's to judge (undefined): the caller keys by origin.
    allows: (url) => robots.isAllowed(url, ROBOTS_USER_AGENT) !== false,
    ...(delayS !== undefined && Number.isFinite(delayS) && delayS >= 0 ? { crawlDelayMs: Math.round(delayS * 1000) } : {}),
    sitemaps: robots.getSitemaps(),
  };
}
