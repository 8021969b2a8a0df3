// What a crawl lets into its frontier (docs/api.md "Sites"): the URLs of its sitemaps (depth 1) and of
// the pages it fetched (depth d + 1), each judged once by its normal form — in scope, within
// max_depth and the path globs (out of those, a URL is not the crawl's: no record), outside the trap
// bounds (else `skipped`), allowed by its host's robots.txt (else `disallowed`), and only while the
// pages the crawl tries stay within `limit` (past it, no record). Also which fetched pages are the
// same page again (their final or canonical URL already fetched: `skipped`).
import { targetGuard } from '../guard/policy.js';
import { pathFilter } from '../sites/path-glob.js';
import { RobotsBook } from '../sites/robots-book.js';
import { inScope, isTrapUrl } from '../sites/scope.js';
import { siteSitemaps, sitemapEntries } from '../sites/site-files.js';
import { normalizeUrl, parseHttpUrl } from '../sites/url-normal-form.js';
import type { CrawlSpec, RecordState } from '../shared/job-rpc.js';

const SITE_FILE_TIMEOUT_MS = 10_000;

/** What the frontier needs of the job's storage. */
export interface FrontierStore {
  sql: SqlStorage;
  /** Records a URL decided without fetching it (skipped or disallowed). */
  record(url: string, state: RecordState, depth: number): void;
}

export class CrawlFrontier {
  readonly #robots: RobotsBook;
  readonly #inPaths: (url: URL) => boolean;
  readonly #start: URL;
  /** Pages the crawl tries and the next URL's position: read once per instance, then kept by #insert. */
  #triesCount: number | undefined;
  #nextPosition: number | undefined;

  constructor(
    private readonly crawl: CrawlSpec,
    start: string,
    private readonly store: FrontierStore,
  ) {
    this.#start = new URL(start);
    this.#robots = new RobotsBook({
      guard: targetGuard({ allowPrivateNetwork: crawl.allowPrivateNetwork }),
      timeoutMs: SITE_FILE_TIMEOUT_MS,
    });
    this.#inPaths = pathFilter(crawl.includePaths, crawl.excludePaths);
  }

  keyOf(url: string): string | undefined {
    return normalizeUrl(url, { ignoreQuery: this.crawl.ignoreQuery });
  }

  /**
   * Puts the start URL in (always fetched, whatever the globs say) and then its sitemaps' URLs;
   * false when robots.txt disallows the start URL (recorded `disallowed`: the crawl fails).
   */
  async seed(): Promise<boolean> {
    const startKey = this.keyOf(this.#start.href)!;
    const policy = (await this.#robots.policyFor(this.#start))!;
    if (!policy.allows(this.#start.href)) {
      this.#insert(startKey, this.#start, 0, 'done', 0);
      this.store.record(this.#start.href, 'disallowed', 0);
      return false;
    }
    this.#insert(startKey, this.#start, 0, 'waiting', 1, policy.crawlDelayMs);
    if (this.crawl.sitemap !== 'skip' && this.crawl.maxDepth >= 1) {
      const entries = await sitemapEntries(siteSitemaps(this.#start, policy), this.crawl.limit * 4, this.#robots.options);
      for (const entry of entries) await this.admit(entry.url, 1);
    }
    return true;
  }

  /** Judges one URL found at `depth`. */
  async admit(found: string, depth: number): Promise<void> {
    const url = parseHttpUrl(found);
    if (url === undefined || depth > this.crawl.maxDepth || !inScope(url, this.#start, this.crawl.includeSubdomains)) return;
    const key = this.keyOf(url.href);
    if (key === undefined || this.#known(key) || !this.#inPaths(url)) return;
    if (isTrapUrl(url)) return this.#decide(key, url, depth, 'skipped');
    const policy = await this.#robots.policyFor(url);
    if (policy === undefined || !policy.allows(url.href)) return this.#decide(key, url, depth, 'disallowed');
    if (this.#tries() >= this.crawl.limit) return;
    this.#insert(key, url, depth, 'waiting', 1, policy.crawlDelayMs);
  }

  /** Follows a fetched page's links, unless the crawl goes no deeper from it. */
  async follow(links: readonly string[], depth: number): Promise<void> {
    if (this.crawl.sitemap === 'only' || depth >= this.crawl.maxDepth) return;
    for (const link of links) await this.admit(link, depth + 1);
  }

  /** Whether a page links are wanted from: a crawl that goes deeper from `depth`. */
  follows(depth: number): boolean {
    return this.crawl.sitemap !== 'only' && depth < this.crawl.maxDepth;
  }

  /**
   * Whether a fetched page is one the crawl already has (its own, final or canonical URL fetched
   * before); if not, its URLs are noted as fetched.
   */
  alreadyFetched(key: string, finalUrl: string | null, canonical: string | undefined): boolean {
    const keys = [key, finalUrl, canonical].flatMap((url) => (url === null || url === undefined ? [] : (this.keyOf(url) ?? [])));
    const sql = this.store.sql;
    const seen = keys.some((candidate) => sql.exec('SELECT 1 FROM landed WHERE key = ?', candidate).toArray().length > 0);
    if (!seen) for (const candidate of keys) sql.exec('INSERT OR IGNORE INTO landed (key) VALUES (?)', candidate);
    return seen;
  }

  #known(key: string): boolean {
    return this.store.sql.exec('SELECT 1 FROM frontier WHERE key = ?', key).toArray().length > 0;
  }

  /** Pages the crawl tries (waiting, under way or decided by a fetch): what `limit` bounds. */
  #tries(): number {
    this.#triesCount ??= this.store.sql.exec<{ n: number }>('SELECT COALESCE(SUM(counts), 0) AS n FROM frontier').one().n;
    return this.#triesCount;
  }

  #decide(key: string, url: URL, depth: number, state: RecordState): void {
    // A URL another report decided while this one awaited robots.txt is not recorded twice.
    if (this.#insert(key, url, depth, 'done', 0)) this.store.record(url.href, state, depth);
  }

  #insert(key: string, url: URL, depth: number, state: string, counts: number, delayMs?: number): boolean {
    const sql = this.store.sql;
    this.#nextPosition ??= sql.exec<{ n: number }>('SELECT COALESCE(MAX(position), -1) + 1 AS n FROM frontier').one().n;
    const position = this.#nextPosition;
    const written = sql.exec(
      'INSERT OR IGNORE INTO frontier (key, url, depth, host, state, position, counts) VALUES (?, ?, ?, ?, ?, ?, ?)',
      key,
      url.href,
      depth,
      url.host,
      state,
      position,
      counts,
    ).rowsWritten;
    if (written > 0) {
      this.#nextPosition = position + 1;
      if (this.#triesCount !== undefined) this.#triesCount += counts;
    }
    if (delayMs !== undefined) {
      sql.exec(
        'INSERT INTO hosts (host, next_start, open, delay_ms) VALUES (?, 0, 0, ?) ON CONFLICT(host) DO UPDATE SET delay_ms = excluded.delay_ms',
        url.host,
        delayMs,
      );
    }
    return written > 0;
  }
}
