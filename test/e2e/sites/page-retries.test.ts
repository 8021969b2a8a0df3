// A job page answered 504 target_timeout or 503 browser_unavailable is tried again, at most 2 more
// times, after 2 s and then 8 s, then recorded failed, and the job goes on to complete (docs/api.md
// "Jobs: batch"): against the real Worker, Chromium and local Durable Objects and Queue. Both are
// provoked as they happen: a page whose server never answers outlasts NAVIGATION_TIMEOUT_MS (no fetch
// field shortens it), and a caller's fetch holds the fleet's only page past QUEUE_TIMEOUT_MS.
import { afterEach, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { type HostSite, startHostSite } from './host-site.js';
import { jobsClient } from './jobs-client.js';
import { gapsBetween } from './page-spacing.js';

/** The waits before the second and the third try (docs/api.md "Jobs: batch"). */
const RETRY_BACKOFF_MS = [2000, 8000];
const NAVIGATION_TIMEOUT_MS = 2000;
const QUEUE_TIMEOUT_MS = 1000;

const ctx = useWorker({
  vars: {
    NAVIGATION_TIMEOUT_MS: String(NAVIGATION_TIMEOUT_MS),
    // One page in the whole fleet: a fetch that holds it leaves a job page none to be had.
    MAX_BROWSERS_PER_LOCATION: '1',
    MAX_PAGES_PER_BROWSER: '1',
    QUEUE_TIMEOUT_MS: String(QUEUE_TIMEOUT_MS),
    CRAWL_HOST_DELAY_MS: '1',
  },
});
const jobs = jobsClient(() => ctx.worker.origin);

let site: HostSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const allowAll = () => ({ status: 200, body: 'User-agent: *\nAllow: /\n' });

describe('a job page that times out or finds no browser', () => {
  it('is tried 3 times in all, 2 s then 8 s apart at least, recorded failed target_timeout; the job completes', {
    timeout: 120_000,
  }, async () => {
    site = await startHostSite({ robots: allowAll, pages: 0, silent: (path) => path === '/never' });
    const never = site.url('/never');
    const { job, records } = await jobs.finished(await jobs.start('/api/batch', { urls: [never] }));

    expect(job.status).toBe('completed');
    expect(job.counts).toEqual({ queued: 0, fetched: 0, failed: 1, blocked: 0, skipped: 0, disallowed: 0 });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ url: never, state: 'failed', status: null, data: null, final_url: null });
    expect(records[0]!.error?.code).toBe('target_timeout');

    const tries = site.pageRequests('127.0.0.1');
    expect(tries.map((request) => request.path)).toEqual(['/never', '/never', '/never']);
    // A try reports once its navigation timed out, after its request arrived: each gap is at least its
    // backoff (the timeout comes on top).
    const gaps = gapsBetween(tries);
    expect(gaps[0], JSON.stringify(gaps)).toBeGreaterThanOrEqual(RETRY_BACKOFF_MS[0]!);
    expect(gaps[1], JSON.stringify(gaps)).toBeGreaterThanOrEqual(RETRY_BACKOFF_MS[1]!);
  });

  it('is tried 3 times in all while a fetch holds the only page, recorded failed browser_unavailable; the job completes', {
    timeout: 120_000,
  }, async () => {
    site = await startHostSite({ robots: allowAll, pages: 0 });
    // Headers at once, a body that never ends: the fetch keeps its page until its wait_ms budget,
    // longer than the three tries with their backoff take.
    const holdMs = 30_000;
    const holding = ctx.worker.fetchPage({ url: ctx.fixtures.url('/hostile/headers-then-hang'), wait_event: 'load', wait_ms: holdMs });
    // The fetch has its page once the site's server sees its request.
    const holds = () => ctx.fixtures.requests.some((request) => request.path === '/hostile/headers-then-hang');
    const deadline = Date.now() + 30_000;
    while (!holds() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(holds()).toBe(true);
    const page = site.url('/page/1');
    const startedAt = Date.now();
    const id = await jobs.start('/api/batch', { urls: [page] });
    const { job, records } = await jobs.finished(id);
    const tookMs = Date.now() - startedAt;

    expect(job.status).toBe('completed');
    expect(job.counts).toEqual({ queued: 0, fetched: 0, failed: 1, blocked: 0, skipped: 0, disallowed: 0 });
    expect(records[0]).toMatchObject({ url: page, state: 'failed', status: null, data: null, final_url: null });
    expect(records[0]!.error?.code).toBe('browser_unavailable');
    // No try reached the site; each one ran and waited its time in the queue for a page.
    expect(site.pageRequests('127.0.0.1')).toEqual([]);
    const pageLines = ctx.worker
      .logs()
      .split('\n')
      .filter((line) => line.includes('"event":"job_page"') && line.includes(id));
    expect(pageLines).toHaveLength(3);
    // Three waits for a page and the two backoffs between them, at least.
    expect(tookMs).toBeGreaterThanOrEqual(RETRY_BACKOFF_MS[0]! + RETRY_BACKOFF_MS[1]! + 3 * QUEUE_TIMEOUT_MS);

    const held = await holding;
    expect(held.status).toBe(200);
  });
});
