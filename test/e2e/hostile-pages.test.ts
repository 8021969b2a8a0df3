// Hostile and broken targets: each is answered within its bounds, with the content or a clear error,
// and the next request is served normally (checked after every test).
import { afterEach, describe, expect, it } from 'vitest';
import { useWorker } from './support/e2e-hooks.js';

const NAVIGATION_TIMEOUT_MS = 4000;
const ctx = useWorker({ vars: { NAVIGATION_TIMEOUT_MS: String(NAVIGATION_TIMEOUT_MS) } });

async function timed(body: object) {
  const started = Date.now();
  const response = await ctx.worker.fetchPage(body);
  const text = await response.text();
  const json = JSON.parse(text) as { data?: string; status?: number; error?: { code: string; message: string } };
  return { response, json, elapsed: Date.now() - started };
}

afterEach(async () => {
  const next = await timed({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
  expect(next.response.status).toBe(200);
  expect(next.json.data).toContain('hello from JS');
});

describe('hostile and broken pages', () => {
  it('returns what arrived when the target resets the connection mid-body', async () => {
    const { response, json, elapsed } = await timed({
      url: ctx.fixtures.url('/hostile/reset-mid-body'),
      wait_event: 'load',
      wait_ms: 3000,
    });
    expect(elapsed).toBeLessThan(NAVIGATION_TIMEOUT_MS + 5000);
    if (response.status === 200) expect(json.data).toContain('Partial');
    else expect(json.error?.code).toBe('target_unreachable');
  });

  it('answers within the navigation timeout when the target sends headers and hangs', async () => {
    const { response, elapsed } = await timed({ url: ctx.fixtures.url('/hostile/headers-then-hang'), wait_ms: 1000 });
    expect([200, 504]).toContain(response.status);
    expect(elapsed).toBeLessThan(NAVIGATION_TIMEOUT_MS + 5000);
  });

  it('answers 502 target_unreachable for a redirect loop', async () => {
    const { response, json } = await timed({ url: ctx.fixtures.url('/hostile/redirect-loop') });
    expect(response.status).toBe(502);
    expect(json.error?.message).toContain('ERR_TOO_MANY_REDIRECTS');
  });

  it('dismisses alerts, confirms, prompts and beforeunload, and survives popups', async () => {
    const { response, json } = await timed({ url: ctx.fixtures.url('/pages/dialogs.html'), wait_event: 'load', wait_ms: 5000 });
    expect(response.status).toBe(200);
    expect(json.data).toContain('after dialogs: confirm=false prompt=null');
  });

  it('ends retrieval of a page stuck in an infinite JavaScript loop with 504', async () => {
    const { response, json, elapsed } = await timed({
      url: ctx.fixtures.url('/pages/infinite-loop.html'),
      wait_event: 'networkIdle',
      wait_ms: 2000,
    });
    expect(response.status).toBe(504);
    expect(json.error?.code).toBe('target_timeout');
    expect(elapsed).toBeLessThan(2000 + 15_000);
  });

  it('returns a DOM of a million nodes', async () => {
    const { response, json } = await timed({ url: ctx.fixtures.url('/hostile/million-nodes'), wait_event: 'load', wait_ms: 20_000 });
    expect(response.status).toBe(200);
    expect(json.data).toContain('after a million nodes');
  });

  it('waits for and returns the document the page navigated itself to during the wait', async () => {
    const { response, json } = await timed({
      url: ctx.fixtures.url('/pages/self-navigate.html'),
      wait_event: 'networkIdle',
      wait_ms: 8000,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(response.headers.get('X-Final-Url')).toBe(ctx.fixtures.url('/pages/article.html'));
    expect(json.data).toContain('An article');
  });

  it('answers a request whose browser is killed mid-request, and serves the next one', async () => {
    const pending = timed({ url: ctx.fixtures.url('/slow-doc?ms=1500'), wait_ms: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    for (const pid of ctx.worker.liveBrowserPids()) process.kill(-pid, 'SIGKILL');
    const { response, json } = await pending;
    // Retried once on a fresh browser: the page, or a clear server error.
    if (response.status === 200) expect(json.data).toContain('finally here');
    else expect(json.error?.code).toMatch(/^(internal_error|browser_unavailable)$/);
  });
});
