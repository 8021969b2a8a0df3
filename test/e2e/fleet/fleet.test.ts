// Capacity against the real Worker (docs/api.md "Capacity and back-pressure"): with 2 browsers of 2
// pages and a 1.5 s queue, 12 concurrent requests for a page that takes 3 s get 4 renders and 8 fast
// 503s with Retry-After; never more than 2 browsers are launched and never more than 4 pages load at
// once; nothing is left running (the hooks check every browser process is gone).
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { pagesPerBrowser } from '../support/processes.js';

const ctx = useWorker({ vars: { MAX_BROWSERS_PER_LOCATION: '2', MAX_PAGES_PER_BROWSER: '2', QUEUE_TIMEOUT_MS: '1500' } });

const PAGE_MS = 3000;
const QUEUE_MS = 1500;
/** How late a refusal may come after the queue time on a busy machine. */
const SLACK_MS = 3000;

/** The queue phase of a fetch answer's Server-Timing, in ms; undefined when it has none. */
function queuePhase(response: Response): number | undefined {
  const match = /(?:^|,\s*)queue;dur=([\d.]+)/.exec(response.headers.get('Server-Timing') ?? '');
  return match === null ? undefined : Number(match[1]);
}

describe('capacity', () => {
  it('serves what 2 browsers of 2 pages can and answers the rest 503 with Retry-After after the queue time', async () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/echo?id=fleet-${i}&ms=${PAGE_MS}`);
    // The browser side, sampled while the requests run: pages each browser has open.
    const pageCounts: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        pageCounts.push(...(await pagesPerBrowser(ctx.worker.liveBrowserPids())));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const answers = await Promise.all(
      paths.map(async (path) => {
        const started = performance.now();
        const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), wait_event: 'DOMContentLoaded' });
        const body = (await response.json()) as { error?: { code: string } };
        return {
          status: response.status,
          retryAfter: response.headers.get('Retry-After'),
          code: body.error?.code,
          ms: performance.now() - started,
          queuedMs: queuePhase(response),
        };
      }),
    );

    sampling = false;
    await sampler;
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 503, 503, 503, 503, 503, 503, 503, 503]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused).toMatchObject({ code: 'browser_unavailable', retryAfter: '2' });
      expect(refused.ms).toBeGreaterThanOrEqual(QUEUE_MS - 50);
      expect(refused.ms).toBeLessThan(QUEUE_MS + SLACK_MS);
    }
    // A served request was placed within the queue time; its own wall time also holds the browser's
    // launch and the page's load, which a busy machine stretches (its Server-Timing says how long it queued).
    for (const served of answers.filter((answer) => answer.status === 200)) expect(served.queuedMs).toBeLessThan(QUEUE_MS);
    // The browser side: launches counted by the Chromium wrapper, and never more than 2 pages beside
    // each browser's first tab; the target side: only the 4 admitted pages were loaded.
    expect(ctx.worker.launchedBrowserCount()).toBe(2);
    expect(pageCounts.length).toBeGreaterThan(10);
    expect(Math.max(...pageCounts)).toBe(1 + 2);
    expect(ctx.fixtures.requests.filter((request) => request.path.startsWith('/echo?id=fleet-')).length).toBe(4);
  });

  it('serves the next requests once pages are free again, on the browsers already running', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        ctx.worker.fetchPage({ url: ctx.fixtures.url(`/echo?id=fleet-again-${i}`), wait_event: 'DOMContentLoaded' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(ctx.worker.launchedBrowserCount()).toBe(2);
  });
});
