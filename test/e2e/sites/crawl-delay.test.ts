// A host's Crawl-delay governs its pace even when it is shorter than CRAWL_HOST_DELAY_MS, which holds
// only without one (docs/api.md "Sites"): against the real Worker, Chromium and local Durable Objects
// and Queue, measured at a site server of the test's own (host-site.ts). CRAWL_HOST_DELAY_MS is far
// longer than the Crawl-delay here, so which of the two spaced the pages shows without a tight bound.
import { afterEach, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { type HostSite, startHostSite } from './host-site.js';
import { jobsClient } from './jobs-client.js';
import { expectSpaced, gapsBetween, warmBrowser } from './page-spacing.js';

const HOST_DELAY_MS = 60_000;
const CRAWL_DELAY_S = 1;

const ctx = useWorker({ vars: { CRAWL_HOST_DELAY_MS: String(HOST_DELAY_MS) } });
const jobs = jobsClient(() => ctx.worker.origin);

let site: HostSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('a Crawl-delay shorter than CRAWL_HOST_DELAY_MS', () => {
  it("spaces the host's pages by the Crawl-delay, not by CRAWL_HOST_DELAY_MS", { timeout: 4 * HOST_DELAY_MS }, async () => {
    site = await startHostSite({
      robots: () => ({ status: 200, body: `User-agent: *\nCrawl-delay: ${CRAWL_DELAY_S}\nAllow: /\n` }),
      pages: 3,
    });
    await warmBrowser(ctx.worker, ctx.fixtures);
    // Long enough for CRAWL_HOST_DELAY_MS to space the pages, so that outcome fails the assertions below rather than the wait.
    const { job } = await jobs.finished(
      await jobs.start('/api/crawl', { url: site.url('/'), sitemap: 'skip' }),
      3 * HOST_DELAY_MS + 30_000,
    );
    expect(job).toMatchObject({ status: 'completed', counts: { fetched: 4, failed: 0 } });
    const pages = site.pageRequests('127.0.0.1');
    expect(pages).toHaveLength(4);
    expectSpaced(pages, CRAWL_DELAY_S * 1000);
    // CRAWL_HOST_DELAY_MS would put each page a minute after the one before; the Crawl-delay puts it
    // about a second after, plus the time a page takes to reach the site.
    const gaps = gapsBetween(pages);
    for (const gap of gaps) expect(gap, JSON.stringify(gaps)).toBeLessThan(HOST_DELAY_MS / 2);
  });
});
