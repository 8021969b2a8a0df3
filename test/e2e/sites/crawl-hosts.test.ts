// What a crawl does per host, against the real Worker, Chromium and local Durable Objects and Queue,
// measured at a site server of the test's own (host-site.ts): subdomains in scope only when asked,
// robots.txt answering 4xx, 429 too (all allowed), or 5xx (all disallowed), the host's Crawl-delay, and
// CRAWL_HOST_DELAY_MS and CRAWL_HOST_CONCURRENCY without one (docs/api.md "Sites").
import { afterEach, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { type HostSite, type HostSiteOptions, startHostSite } from './host-site.js';
import { type JobRecord, jobsClient } from './jobs-client.js';
import { expectSpaced, warmBrowser } from './page-spacing.js';

const HOST_DELAY_MS = 1500;
const HOST_CONCURRENCY = 2;

const ctx = useWorker({
  vars: { CRAWL_HOST_DELAY_MS: String(HOST_DELAY_MS), CRAWL_HOST_CONCURRENCY: String(HOST_CONCURRENCY) },
  // The Worker reads the subdomain's robots.txt itself; Chromium resolves *.localhost on its own.
  loopbackNames: ['sub.localhost'],
});
const jobs = jobsClient(() => ctx.worker.origin);

const sites: HostSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});
async function hostSite(options: HostSiteOptions): Promise<HostSite> {
  const site = await startHostSite(options);
  sites.push(site);
  return site;
}

const allowAll = () => ({ status: 200, body: 'User-agent: *\nAllow: /\n' });
const urlsIn = (records: JobRecord[], state: string) =>
  records
    .filter((record) => record.state === state)
    .map((record) => record.url)
    .sort();

describe('a crawl per host', () => {
  it('crawls a subdomain, after its own robots.txt, only with include_subdomains', async () => {
    const site = await hostSite({ robots: allowAll, pages: 1 });
    const start = site.url('/', 'localhost');
    const sub = site.url('/from-sub', 'sub.localhost');

    const wide = await jobs.finished(await jobs.start('/api/crawl', { url: start, sitemap: 'skip', include_subdomains: true }));
    expect(wide.job.status).toBe('completed');
    expect(urlsIn(wide.records, 'fetched')).toEqual([start, site.url('/page/1', 'localhost'), sub].sort());
    expect(wide.records.find((record) => record.url === sub)).toMatchObject({ depth: 1, status: 200, final_url: sub });
    expect(site.requests.some((request) => request.hostname === 'sub.localhost' && request.path === '/robots.txt')).toBe(true);
    expect(site.pageRequests('sub.localhost').map((request) => request.path)).toEqual(['/from-sub']);

    const before = site.requests.length;
    const narrow = await jobs.finished(await jobs.start('/api/crawl', { url: start, sitemap: 'skip' }));
    expect(narrow.job.status).toBe('completed');
    expect(narrow.records.map((record) => record.url).sort()).toEqual([start, site.url('/page/1', 'localhost')].sort());
    expect(site.requests.slice(before).some((request) => request.hostname === 'sub.localhost')).toBe(false);
  });

  it('crawls everything when robots.txt answers 4xx, 429 Too Many Requests included', async () => {
    for (const status of [404, 403, 429]) {
      const site = await hostSite({ robots: () => ({ status, body: 'User-agent: *\nDisallow: /\n' }), pages: 2 });
      const { job, records } = await jobs.finished(await jobs.start('/api/crawl', { url: site.url('/'), sitemap: 'skip' }));
      expect(job.status, `robots.txt ${status}`).toBe('completed');
      expect(job.counts).toMatchObject({ fetched: 3, disallowed: 0 });
      expect(urlsIn(records, 'fetched')).toEqual([site.url('/'), site.url('/page/1'), site.url('/page/2')].sort());
    }
  });

  it('fetches nothing when robots.txt answers 5xx: the start URL is disallowed and the crawl fails', async () => {
    for (const status of [500, 503]) {
      const site = await hostSite({ robots: () => ({ status, body: 'User-agent: *\nAllow: /\n' }), pages: 2 });
      const { job, records } = await jobs.finished(await jobs.start('/api/crawl', { url: site.url('/'), sitemap: 'skip' }));
      expect(job.status, `robots.txt ${status}`).toBe('failed');
      expect(records).toEqual([expect.objectContaining({ url: site.url('/'), state: 'disallowed', depth: 0, data: null })]);
      expect(site.pageRequests('127.0.0.1')).toEqual([]);
    }
  });

  it("spaces a host's pages by its Crawl-delay (the PageFetch group's), in place of CRAWL_HOST_DELAY_MS", async () => {
    const robots = () => ({ status: 200, body: 'User-agent: *\nDisallow: /\n\nUser-agent: PageFetch\nCrawl-delay: 3\nAllow: /\n' });
    const site = await hostSite({ robots, pages: 3 });
    await warmBrowser(ctx.worker, ctx.fixtures);
    const { job } = await jobs.finished(await jobs.start('/api/crawl', { url: site.url('/'), sitemap: 'skip' }));
    expect(job.counts).toMatchObject({ fetched: 4 });
    const pages = site.pageRequests('127.0.0.1');
    expect(pages).toHaveLength(4);
    expectSpaced(pages, 3000);
  });

  it('without a Crawl-delay, starts a page of a host at most every CRAWL_HOST_DELAY_MS, at most CRAWL_HOST_CONCURRENCY at once', async () => {
    // Pages that answer slower than the delay: the host's concurrency is what holds them back.
    const site = await hostSite({ robots: allowAll, pages: 5, pageMs: 2500 });
    await warmBrowser(ctx.worker, ctx.fixtures);
    const { job } = await jobs.finished(await jobs.start('/api/crawl', { url: site.url('/'), sitemap: 'skip' }));
    expect(job.counts).toMatchObject({ fetched: 6 });
    const pages = site.pageRequests('127.0.0.1');
    expect(pages).toHaveLength(6);
    expectSpaced(pages, HOST_DELAY_MS);
    expect(site.mostOpen('127.0.0.1')).toBe(HOST_CONCURRENCY);
  });
});
