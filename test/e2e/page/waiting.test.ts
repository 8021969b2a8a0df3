// The waiting contract of docs/api.md "Waiting" against the real Worker, Browser Rendering emulation and Chromium.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

async function fetchJson(body: object) {
  const started = Date.now();
  const response = await ctx.worker.fetchPage(body);
  const json = (await response.json()) as { data: string; status: number; headers: Record<string, string> };
  return { response, json, elapsed: Date.now() - started };
}

describe('waiting', () => {
  it('returns text inserted by a script', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    expect(response.status).toBe(200);
    expect(json.data).toContain('<strong>hello from JS</strong>');
    expect(response.headers.get('X-Wait-Result')).toBe('event');
  });

  it('returns at DOMContentLoaded before a late fetch completes', async () => {
    const { json, response } = await fetchJson({ url: ctx.fixtures.url('/pages/late-fetch.html'), wait_event: 'DOMContentLoaded' });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('waiting for data');
    expect(json.data).not.toContain('LATE DATA ARRIVED');
  });

  it('waits for a late fetch with networkIdle', async () => {
    const { json, response } = await fetchJson({ url: ctx.fixtures.url('/pages/late-fetch.html'), wait_event: 'networkIdle' });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('LATE DATA ARRIVED');
  });

  it('honours the budget on a page that never goes network-idle and says so', async () => {
    const { json, response, elapsed } = await fetchJson({
      url: ctx.fixtures.url('/pages/never-idle.html'),
      wait_event: 'networkIdle',
      wait_ms: 2000,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('timeout');
    expect(json.data).toContain('<h1>Never idle</h1>');
    // The budget counts from navigation start; browser launch and serialization come on top.
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(2000 + 8000);
  });

  it('reaches networkAlmostIdle, but not networkIdle, on a page with one request that never ends', async () => {
    const url = ctx.fixtures.url('/pages/one-open-request.html');
    const almost = await fetchJson({ url, wait_event: 'networkAlmostIdle', wait_ms: 10000 });
    expect(almost.response.headers.get('X-Wait-Result')).toBe('event');
    expect(almost.elapsed).toBeLessThan(10000);
    const idle = await fetchJson({ url, wait_event: 'networkIdle', wait_ms: 1500 });
    expect(idle.response.headers.get('X-Wait-Result')).toBe('timeout');
  });

  it('still returns a main document slower than wait_ms', async () => {
    const { json, response } = await fetchJson({ url: ctx.fixtures.url('/slow-doc?ms=2500'), wait_ms: 1000 });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('timeout');
    expect(json.data).toContain('finally here');
  });
});
