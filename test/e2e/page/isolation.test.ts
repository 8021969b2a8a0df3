// Isolation and lifecycle: each request has its own browser context (cookies and storage never carry
// over), concurrent requests do not cross, one browser serves them all, and it is closed when idle.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const IDLE_CLOSE_MS = 2000;
const ctx = useWorker({ vars: { BROWSER_IDLE_CLOSE_MS: String(IDLE_CLOSE_MS) } });

async function dataOf(body: object): Promise<string> {
  const response = await ctx.worker.fetchPage(body);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: string }).data;
}

describe('isolation', () => {
  it('does not carry cookies from one request to the next', async () => {
    const first = await dataOf({ url: ctx.fixtures.url('/set-cookie?value=first-caller'), wait_event: 'load' });
    expect(first).toContain('(no cookie)');
    const second = await dataOf({ url: ctx.fixtures.url('/show-cookie'), wait_event: 'load' });
    expect(second).toContain('(no cookie)');
    expect(second).not.toContain('first-caller');
  });

  it('does not carry localStorage from one request to the next', async () => {
    for (let i = 0; i < 2; i++) {
      const data = await dataOf({ url: ctx.fixtures.url('/pages/cookies.html'), wait_event: 'load' });
      expect(data).toContain('<span id="store">(none)</span>');
    }
  });

  it('serves 6 concurrent requests without cross-talk', async () => {
    const ids = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6'];
    const results = await Promise.all(
      ids.map(async (id, index) => {
        const response = await ctx.worker.fetchPage({
          url: ctx.fixtures.url(`/echo?id=${id}&ms=${(ids.length - index) * 150}`),
          wait_event: 'load',
          raw: true,
          output_format: 'markdown',
        });
        return { id, status: response.status, finalUrl: response.headers.get('X-Final-Url'), body: await response.text() };
      }),
    );
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body).toContain(`request-${result.id}`);
      for (const other of ids.filter((id) => id !== result.id)) expect(result.body).not.toContain(`request-${other}`);
      expect(result.finalUrl).toContain(`id=${result.id}`);
    }
  });

  it('serves every request of the file from one shared browser', async () => {
    await dataOf({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    expect(ctx.worker.liveBrowserPids()).toHaveLength(1);
  });

  it('serves the next request with a new browser after the shared one crashed', async () => {
    await dataOf({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    const [crashed] = ctx.worker.liveBrowserPids();
    expect(crashed).toBeDefined();
    process.kill(-crashed!, 'SIGKILL');
    const data = await dataOf({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    expect(data).toContain('hello from JS');
    const live = ctx.worker.liveBrowserPids();
    expect(live).toHaveLength(1);
    expect(live).not.toContain(crashed);
  });

  it('closes the shared browser once it has been idle for BROWSER_IDLE_CLOSE_MS', async () => {
    await dataOf({ url: ctx.fixtures.url('/pages/script-text.html'), wait_event: 'load' });
    const deadline = Date.now() + IDLE_CLOSE_MS + 5000;
    while (ctx.worker.liveBrowserPids().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(ctx.worker.liveBrowserPids()).toEqual([]);
  });
});
