// Job pages give way to single fetches (docs/fleet.md "Job pages"), on the real Worker and Chromium:
// while a batch of slow pages holds the fleet, a POST /api/fetch still finds a browser page at once;
// while fetches keep coming, the batch renders one page at a time and a fifth of the time, its other
// pages waiting in the queue, and once they stop it fills its share again and ends with every page
// fetched.
import { describe, expect, it } from 'vitest';
import { FETCH_QUIET_MS } from '../../../src/browser/fleet/fleet-policy.js';
import { useWorker } from '../support/e2e-hooks.js';
import { jobsClient } from './jobs-client.js';

// One browser of four pages; the batch unpaced, so it asks for more pages than there are.
const ctx = useWorker({
  vars: { MAX_BROWSERS_PER_LOCATION: '1', MAX_PAGES_PER_BROWSER: '4', CRAWL_HOST_CONCURRENCY: '16', CRAWL_HOST_DELAY_MS: '1' },
});
const jobs = jobsClient(() => ctx.worker.origin);
const SLOW_MS = 6000;
const BATCH = 8;

const slowDocsSeen = () => ctx.fixtures.requests.filter((request) => request.path.startsWith('/slow-doc')).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

async function timedFetch(tag: string): Promise<{ status: number; queued: number; text: string }> {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(`/pages/article.html?${tag}`), wait_event: 'load' });
  const queued = Number(/(?:^|,)\s*queue;dur=([0-9.]+)/.exec(response.headers.get('Server-Timing') ?? '')?.[1]);
  return { status: response.status, queued, text: await response.text() };
}

describe('job pages and single fetches', () => {
  it('leaves a page free for a fetch, renders job pages one at a time and a fifth of the time while fetches come, and finishes the batch', {
    timeout: 240_000,
  }, async () => {
    // The browser up before the batch, so that the job's pages and the fetch meet a warm fleet; then
    // quiet, so that the batch finds no fetch about.
    expect((await timedFetch('warm')).status).toBe(200);
    await sleep(FETCH_QUIET_MS + 500);
    const urls = Array.from({ length: BATCH }, (_, index) => ctx.fixtures.url(`/slow-doc?ms=${SLOW_MS}&n=${index}`));
    const id = await jobs.start('/api/batch', { urls, page: { wait_event: 'load' } });
    // Three job pages render (the share of four pages); a fourth would have started by now without it.
    await until(() => slowDocsSeen() >= 3, 30_000);
    await sleep(1000);
    expect(slowDocsSeen()).toBe(3);

    const during = await timedFetch('during');
    expect(during.status).toBe(200);
    // Placed at once, not after a job page's SLOW_MS.
    expect(during.queued).toBeLessThan(1000);
    expect(during.text).toContain('An article');

    // Fetches keep coming. Beside them job pages render one at a time, and after each the next waits
    // four times as long as it took: the three under way end (about SLOW_MS), a fourth starts about
    // 4 × SLOW_MS later, and a fifth not before 4 × SLOW_MS after that one ends. Without the rule the
    // whole batch would have started by now.
    const fetchesUntil = Date.now() + 7 * SLOW_MS;
    for (let round = 0; Date.now() < fetchesUntil; round++) {
      expect((await timedFetch(`round-${round}`)).status).toBe(200);
      await sleep(1000);
    }
    expect(slowDocsSeen()).toBe(4);

    // Fetches gone, the batch has the fleet again; no page held back was spent or lost.
    const { job, records } = await jobs.finished(id, 90_000);
    expect(job.status).toBe('completed');
    expect(records.map((record) => record.state)).toEqual(Array(BATCH).fill('fetched'));
  });
});
