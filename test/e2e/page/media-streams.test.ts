// A media stream is not a load (docs/api.md "Waiting"). Media are blocked by default (BLOCK_MEDIA), so
// this file's Worker lets the page download them, as a deployment with BLOCK_MEDIA "false" does.
import { describe, expect, it } from 'vitest';
import { NETWORK_QUIET_MS } from '../../../src/browser/page/network-tracker.js';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker({ vars: { BLOCK_MEDIA: 'false' } });

describe('a media stream', () => {
  it('does not hold networkIdle: a page with audio that never ends answers once its content has loaded', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/live/radio?late=1'), wait_ms: 15_000 });
    const json = (await response.json()) as { data: string };
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('LATE DATA ARRIVED');
    // The audio was requested and still streaming when the page was taken.
    expect(ctx.fixtures.requests.some((request) => request.path === '/live/radio.wav')).toBe(true);
    const wait = Number(/(?:^|,\s*)wait;dur=([\d.]+)/.exec(response.headers.get('Server-Timing') ?? '')?.[1]);
    expect(wait).toBeLessThan(800 + NETWORK_QUIET_MS + 1000);
  });
});
