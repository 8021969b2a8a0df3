// The bounds of a screenshot (docs/api.md "Links, images and screenshots") on a Worker configured
// small: a picture over MAX_CONTENT_BYTES is 502 content_too_large, and MAX_SCREENSHOT_HEIGHT cuts a
// full page where it says, whatever the default; a page that never holds still for its picture is
// answered within the request's own bound, as a read is.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

/** Short, so that the bound a page that never holds still runs into is reached quickly. */
const NAVIGATION_TIMEOUT_MS = 8_000;
const ctx = useWorker({
  vars: { MAX_CONTENT_BYTES: '200000', MAX_SCREENSHOT_HEIGHT: '12000', NAVIGATION_TIMEOUT_MS: String(NAVIGATION_TIMEOUT_MS) },
});

const fetchBands = (screenshot: object) =>
  ctx.worker.fetchPage({ url: ctx.fixtures.url('/views/bands'), wait_event: 'load', screenshot: { full_page: true, ...screenshot } });

describe('screenshot bounds', () => {
  it('answers 502 content_too_large for a picture over MAX_CONTENT_BYTES', async () => {
    // 12,000 px of colour bands as PNG: about 230 KB, over the 200,000 bytes configured.
    const response = await fetchBands({});
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('content_too_large');
  });

  it('cuts a full page at MAX_SCREENSHOT_HEIGHT', async () => {
    // WebP keeps the same picture small (about 10 KB).
    const response = await fetchBands({ type: 'webp', quality: 80 });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Screenshot-Truncated')).toBe('true');
    const { screenshot } = (await response.json()) as { screenshot: { type: string; height: number } };
    expect(screenshot).toMatchObject({ type: 'image/webp', height: 12_000 });
  });

  // Whether a frame is painted between two reloads is a race (on a busy machine the dismissal comes
  // later and one often is): the contract is the bound, and a clear answer either way.
  it("answers a page that reloads itself every time its dialog is dismissed within the request's own bound: its picture when a frame was painted, else 504 target_timeout, never 500", async () => {
    const started = Date.now();
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/pages/reload-loop.html'),
      wait_event: 'load',
      wait_ms: 1000,
      screenshot: true,
    });
    const elapsed = Date.now() - started;
    const body = (await response.json()) as { screenshot?: { type: string; width: number }; error?: object };
    expect(elapsed).toBeLessThan(NAVIGATION_TIMEOUT_MS + 20_000);
    if (response.status === 200) {
      expect(body.screenshot).toMatchObject({ type: 'image/png', width: expect.any(Number) });
      return;
    }
    expect(response.status).toBe(504);
    expect(body.error).toEqual({ code: 'target_timeout', message: expect.stringContaining('did not hold still for its screenshot') });
    // The bound is NAVIGATION_TIMEOUT_MS (longer than wait_ms here), counted from the read's start.
    expect(elapsed).toBeGreaterThanOrEqual(NAVIGATION_TIMEOUT_MS);
  });
});
