// Job pages give way to single fetches (docs/fleet.md "Job pages"), on the real Worker and Chromium:
// while a batch of slow pages holds the fleet, a POST /api/fetch still finds a browser page at once.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { jobsClient } from './jobs-client.js';

// One browser of four pages; the batch unpaced, so it asks for more pages than there are.
const ctx = useWorker({
  vars: { MAX_BROWSERS_PER_LOCATION: '1', MAX_PAGES_PER_BROWSER: '4', CRAWL_HOST_CONCURRENCY: '16', CRAWL_HOST_DELAY_MS: '1' },
});
const jobs = jobsClient(() => ctx.worker.origin);
const SLOW_MS = 6000;

const slowDocsSeen = () => ctx.fixtures.requests.filter((request) => request.path.startsWith('/slow-doc')).length;

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('job pages and single fetches', () => {
  it('leaves a page free for a fetch while a batch wants every page of the fleet', { timeout: 90_000 }, async () => {
    // The browser up before the batch, so that the job's pages and the fetch meet a warm fleet.
    expect((await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/article.html?warm'), wait_event: 'load' })).status).toBe(200);
    const urls = Array.from({ length: 8 }, (_, index) => ctx.fixtures.url(`/slow-doc?ms=${SLOW_MS}&n=${index}`));
    const id = await jobs.start('/api/batch', { urls, page: { wait_event: 'load' } });
    // Three job pages render (the share of four pages); a fourth would have started by now without it.
    await until(() => slowDocsSeen() >= 3, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(slowDocsSeen()).toBe(3);

    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/article.html?during'), wait_event: 'load' });
    expect(response.status).toBe(200);
    const queued = Number(/(?:^|,)\s*queue;dur=([0-9.]+)/.exec(response.headers.get('Server-Timing') ?? '')?.[1]);
    // Placed at once, not after a job page's SLOW_MS.
    expect(queued).toBeLessThan(1000);
    expect(await response.text()).toContain('An article');
    expect((await jobs.call('DELETE', `/api/jobs/${id}`)).status).toBe(200);
  });
});
