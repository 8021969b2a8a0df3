// POST /api/crawl against the real Worker, Chromium and local Durable Objects, Queue and R2, on the
// fixture site (support/site-routes.ts): the start page, its sitemaps (index, gzip) at depth 1, links
// at depth + 1, scope, robots.txt (PageFetch group) → disallowed, trap → skipped, the same page by
// canonical or final URL → skipped, max_depth, include/exclude globs, limit, a start URL that cannot
// be fetched → failed, and every bad input.
import { describe, expect, it } from 'vitest';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { type JobRecord, jobsClient } from './jobs-client.js';

const ctx = useWorker({ vars: { CRAWL_HOST_DELAY_MS: '1', MAX_CRAWL_PAGES: '50' } });
const jobs = jobsClient(() => ctx.worker.origin);
const site = (path: string) => ctx.fixtures.url(path);

const byState = (records: JobRecord[], state: string) =>
  records
    .filter((record) => record.state === state)
    .map((record) => record.url)
    .sort();

describe('POST /api/crawl', () => {
  it('crawls the site: sitemaps and links in scope, robots obeyed, traps and repeats skipped, each URL once', async () => {
    const id = await jobs.start('/api/crawl', { url: site('/site/'), page: { output_format: 'markdown' } });
    const { job, records } = await jobs.finished(id);
    expect(job).toMatchObject({ id, kind: 'crawl', status: 'completed' });

    const decided = records.map((record) => record.url);
    expect(new Set(decided).size).toBe(decided.length);
    expect(byState(records, 'disallowed')).toEqual([site('/site/private/hidden'), site('/site/private/report')].sort());
    const trap = records.find((record) => record.url.endsWith('/trap'))!;
    expect(trap.state).toBe('skipped');

    // The introduction is reached as itself and as ?ref=home (canonical: itself); the guide as itself
    // and through /site/docs/old (a redirect): one of each is fetched, the other skipped.
    const fetched = byState(records, 'fetched');
    const skipped = byState(records, 'skipped');
    for (const pair of [
      [site('/site/docs/intro'), site('/site/docs/intro?ref=home')],
      [site('/site/docs/guide'), site('/site/docs/old')],
    ]) {
      expect(pair.filter((url) => fetched.includes(url))).toHaveLength(1);
      expect(pair.filter((url) => skipped.includes(url))).toHaveLength(1);
    }
    for (const path of ['/site/', '/site/blog/first', '/site/blog/second', '/site/docs/api', '/site/private/open', '/site/docs/api/v2']) {
      expect(fetched).toContain(site(path));
    }
    expect(job.counts).toEqual({ queued: 0, fetched: 8, failed: 0, blocked: 0, skipped: 3, disallowed: 2 });

    // Depth: the start page 0, sitemap URLs and its links 1, their links 2.
    const depthOf = (path: string) => records.find((record) => record.url === site(path))?.depth;
    expect(depthOf('/site/')).toBe(0);
    expect(depthOf('/site/blog/first')).toBe(1);
    expect(depthOf('/site/docs/api')).toBe(1);
    expect(depthOf('/site/docs/api/v2')).toBe(2);
    const start = records.find((record) => record.url === site('/site/'))!;
    expect(start).toMatchObject({ final_url: site('/site/'), status: 200 });
    expect(start.data).toContain('# Site home');
    // Nothing out of scope was loaded, and no disallowed page.
    const loaded = ctx.fixtures.requests.map((request) => request.path);
    expect(loaded).not.toContain('/site/private/hidden');
    expect(loaded).not.toContain('/site/private/report');
    expect(loaded.some((path) => path.includes('elsewhere'))).toBe(false);
  });

  it('goes no deeper than max_depth', async () => {
    const { job, records } = await jobs.finished(await jobs.start('/api/crawl', { url: site('/site/'), max_depth: 0 }));
    expect(job.status).toBe('completed');
    expect(records.map((record) => [record.url, record.state])).toEqual([[site('/site/'), 'fetched']]);
  });

  it('keeps to the include globs, exclude winning, and always fetches the start URL', async () => {
    const id = await jobs.start('/api/crawl', {
      url: site('/site/'),
      include_paths: ['/site/blog/**'],
      exclude_paths: ['/site/blog/second'],
    });
    const { records } = await jobs.finished(id);
    expect(byState(records, 'fetched')).toEqual([site('/site/'), site('/site/blog/first')].sort());
  });

  it('tries at most `limit` pages, and with sitemap "skip" reads no sitemap', async () => {
    const { job, records } = await jobs.finished(await jobs.start('/api/crawl', { url: site('/site/'), limit: 3, sitemap: 'skip' }));
    expect(job.status).toBe('completed');
    expect(records.filter((record) => record.state === 'fetched' || record.state === 'failed').length).toBeLessThanOrEqual(3);
    expect(records.some((record) => record.url.includes('/blog/'))).toBe(false);
  });

  it('fails when the start URL cannot be fetched: the page breaks off, its host is unreachable, or robots.txt disallows it', async () => {
    const broken = await jobs.finished(await jobs.start('/api/crawl', { url: site('/site/reset'), sitemap: 'skip' }));
    expect(broken.job.status).toBe('failed');
    expect(broken.records).toHaveLength(1);
    expect(broken.records[0]).toMatchObject({ url: site('/site/reset'), state: 'failed', status: null, data: null });
    expect(broken.records[0]!.error?.code).toBe('target_unreachable');

    // An unreachable host's robots.txt is unreachable too, which disallows everything (RFC 9309).
    const unreachable = `http://127.0.0.1:${await closedPort()}/`;
    const down = await jobs.finished(await jobs.start('/api/crawl', { url: unreachable }));
    expect(down.job.status).toBe('failed');
    expect(down.records).toEqual([expect.objectContaining({ url: unreachable, state: 'disallowed', depth: 0 })]);

    const disallowed = await jobs.finished(await jobs.start('/api/crawl', { url: site('/site/private/x') }));
    expect(disallowed.job.status).toBe('failed');
    expect(disallowed.records).toEqual([expect.objectContaining({ url: site('/site/private/x'), state: 'disallowed', depth: 0 })]);
  });

  it('answers 400 naming each bad field, before any target is loaded', async () => {
    const before = ctx.fixtures.requests.length;
    const url = site('/site/');
    const cases: [unknown, string[]][] = [
      [{}, ['url']],
      [{ url: 'mailto:a@b.c' }, ['url']],
      [{ url, limit: 0 }, ['limit']],
      [{ url, limit: 51 }, ['limit']],
      [{ url, max_depth: -1 }, ['max_depth']],
      [{ url, max_depth: 101 }, ['max_depth']],
      [{ url, include_paths: '/docs/*' }, ['include_paths']],
      [{ url, exclude_paths: Array.from({ length: 51 }, (_, i) => `/p${i}`) }, ['exclude_paths']],
      [{ url, include_paths: [7] }, ['include_paths[0]']],
      [{ url, include_subdomains: 1, ignore_query: 'no', sitemap: 'all' }, ['include_subdomains', 'ignore_query', 'sitemap']],
      [{ url, page: { wait_event: 'idle' } }, ['page.wait_event']],
      [{ url, urls: [url] }, ['urls']],
    ];
    await jobs.expectFieldErrors('/api/crawl', cases);
    expect(ctx.fixtures.requests.length).toBe(before);
  });
});
