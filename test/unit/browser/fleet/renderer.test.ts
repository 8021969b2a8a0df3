// The hub's behaviour lives in Renderer (src/browser/fleet/renderer.ts): BrowserHub only builds it from its
// binding, and 'cloudflare:workers' does not load in Node.
import type { Browser } from '@cloudflare/puppeteer';
import { describe, expect, it, vi } from 'vitest';
import type { PreparedPage } from '../../../../src/browser/page/page-setup.js';
import type { RenderCall, RenderedPage, RenderOutcome } from '../../../../src/browser/render-call.js';
import { type LoadPage, Renderer, type RenderPool } from '../../../../src/browser/fleet/renderer.js';
import { ApiError } from '../../../../src/errors.js';
import { RENDER_CALL, RENDERED_PAGE } from '../support/render-call.js';
import { useFakeClock } from '../support/settle.js';

const IDLE_CLOSE_MS = 60_000;
const CALL: RenderCall = { ...RENDER_CALL, location: 'JP', idleCloseMs: IDLE_CLOSE_MS, fleet: { ...RENDER_CALL.fleet, maxPages: 8 } };
const PAGE = RENDERED_PAGE;

/** A pool whose browsers are plain `{ id, connected }` records; discarding one makes the next page use a fresh one. */
function fakePool() {
  let launches = 1;
  let browser = { id: launches, connected: true };
  const opened: { browser: { id: number; connected: boolean }; close: ReturnType<typeof vi.fn> }[] = [];
  const closedAt: number[] = [];
  const spareRooms: (number | undefined)[] = [];
  const pool = {
    openPage: vi.fn(async (_setup: unknown, spareRoom?: () => number, _launchRetryMs?: number) => {
      spareRooms.push(spareRoom?.());
      const page = { browser, close: vi.fn(async () => undefined) };
      opened.push(page);
      return page as unknown as PreparedPage;
    }),
    discard: vi.fn((_: Browser) => {
      browser = { id: ++launches, connected: true };
    }),
    close: vi.fn(async () => {
      closedAt.push(Date.now());
    }),
  };
  return { pool, opened, closedAt, spareRooms, asPool: pool as RenderPool };
}

function renderer(load: LoadPage) {
  const fake = fakePool();
  const createPool = vi.fn(() => fake.asPool);
  return { ...fake, createPool, renderer: new Renderer(createPool, load) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const errorCode = (outcome: RenderOutcome) => (outcome.ok ? undefined : outcome.error.code);

/** A loader whose first call fails with `error`, after `before` ran (e.g. the browser disconnecting); later calls succeed. */
function failingOnce(error: unknown, before: () => void = () => undefined) {
  return vi
    .fn<LoadPage>(async () => PAGE)
    .mockImplementationOnce(async () => {
      before();
      throw error;
    });
}

useFakeClock();

describe('Renderer: retry once on a fresh browser', () => {
  it('serves the request on a fresh browser when the browser disconnected under it', async () => {
    const fake = fakePool();
    const load = failingOnce(new Error('Protocol error (Runtime.callFunctionOn): Internal error'), () => {
      fake.opened[0]!.browser.connected = false;
    });
    const outcome = await new Renderer(() => fake.asPool, load).render(CALL);
    expect(outcome.ok && outcome.page).toBe(PAGE);
  });

  it.each([
    'Protocol error (Page.navigate): Target closed',
    'Protocol error (Runtime.evaluate): Session closed. Most likely the page has been closed.',
    'Connection closed.',
    'Navigating frame was detached',
  ])('serves the request on a fresh browser after "%s"', async (message) => {
    const { renderer: subject } = renderer(failingOnce(new Error(message)));
    const outcome = await subject.render(CALL);
    expect(outcome.ok && outcome.page).toBe(PAGE);
  });

  it("retries an internal_error whose cause says the browser's session closed", async () => {
    const cause = new Error('Protocol error (DOM.describeNode): Session closed.');
    const { renderer: subject } = renderer(failingOnce(new ApiError('internal_error', undefined, { cause })));
    const outcome = await subject.render(CALL);
    expect(outcome.ok && outcome.page).toBe(PAGE);
  });

  it('discards the browser that died under the request', async () => {
    const { renderer: subject, pool, opened } = renderer(failingOnce(new Error('Target closed')));
    await subject.render(CALL);
    expect(pool.discard.mock.calls).toEqual([[opened[0]!.browser]]);
  });

  it('answers a second browser failure as the error', async () => {
    const load = vi.fn<LoadPage>(async () => {
      throw new Error('Protocol error (Page.navigate): Target closed');
    });
    const { renderer: subject } = renderer(load);
    const outcome = await subject.render(CALL);
    expect({ code: errorCode(outcome), loads: load.mock.calls.length }).toEqual({ code: 'internal_error', loads: 2 });
  });

  it('never retries an ApiError other than internal_error, even from a disconnected browser', async () => {
    const fake = fakePool();
    const load = failingOnce(new ApiError('target_unreachable'), () => {
      fake.opened[0]!.browser.connected = false;
    });
    const outcome = await new Renderer(() => fake.asPool, load).render(CALL);
    expect({ code: errorCode(outcome), loads: load.mock.calls.length }).toEqual({ code: 'target_unreachable', loads: 1 });
  });

  it('does not retry an ordinary error from a browser that is still connected', async () => {
    const load = failingOnce(new Error('boom'));
    const { renderer: subject } = renderer(load);
    const outcome = await subject.render(CALL);
    expect({ code: errorCode(outcome), loads: load.mock.calls.length }).toEqual({ code: 'internal_error', loads: 1 });
  });

  it('does not retry when no page could be opened', async () => {
    const { renderer: subject, pool } = renderer(vi.fn<LoadPage>(async () => PAGE));
    pool.openPage.mockRejectedValueOnce(new ApiError('browser_unavailable', undefined, { headers: { 'Retry-After': '5' } }));
    const outcome = await subject.render(CALL);
    expect({ code: errorCode(outcome), opens: pool.openPage.mock.calls.length }).toEqual({ code: 'browser_unavailable', opens: 1 });
  });

  it("hands the pool the call's launch retry time", async () => {
    const { renderer: subject, pool } = renderer(vi.fn<LoadPage>(async () => PAGE));
    await subject.render({ ...CALL, launchRetryMs: 700 });
    expect(pool.openPage.mock.calls[0]![2]).toBe(700);
  });
});

describe('Renderer: prepared pages', () => {
  it('closes the page after a success', async () => {
    const { renderer: subject, opened } = renderer(vi.fn<LoadPage>(async () => PAGE));
    await subject.render(CALL);
    expect(opened.map((page) => page.close.mock.calls.length)).toEqual([1]);
  });

  it('closes the page after an error', async () => {
    const { renderer: subject, opened } = renderer(failingOnce(new ApiError('target_timeout')));
    await subject.render(CALL);
    expect(opened.map((page) => page.close.mock.calls.length)).toEqual([1]);
  });

  it('closes both pages of a retried request', async () => {
    const { renderer: subject, opened } = renderer(failingOnce(new Error('Target closed')));
    await subject.render(CALL);
    expect(opened.map((page) => page.close.mock.calls.length)).toEqual([1, 1]);
  });

  it("creates the pool once, in the first call's location and with its idle close", async () => {
    const { renderer: subject, createPool } = renderer(vi.fn<LoadPage>(async () => PAGE));
    await subject.render(CALL);
    await subject.render({ ...CALL, location: undefined });
    expect(createPool.mock.calls).toEqual([['JP', IDLE_CLOSE_MS]]);
  });
});

describe('Renderer: idle close', () => {
  it('closes the pool idleCloseMs after the last request ends', async () => {
    const { renderer: subject, closedAt } = renderer(vi.fn<LoadPage>(async () => PAGE));
    vi.setSystemTime(1000);
    await subject.render(CALL);
    await vi.advanceTimersByTimeAsync(10 * IDLE_CLOSE_MS);
    expect(closedAt).toEqual([1000 + IDLE_CLOSE_MS]);
  });

  it('does not close the pool while another request is active', async () => {
    const slow = deferred<RenderedPage>();
    const load = vi.fn<LoadPage>(async () => PAGE).mockReturnValueOnce(slow.promise);
    const { renderer: subject, closedAt } = renderer(load);
    const long = subject.render(CALL);
    await vi.advanceTimersByTimeAsync(1000);
    await subject.render(CALL);
    await vi.advanceTimersByTimeAsync(100_000 - Date.now());
    slow.resolve(PAGE);
    await long;
    await vi.advanceTimersByTimeAsync(10 * IDLE_CLOSE_MS);
    expect(closedAt).toEqual([100_000 + IDLE_CLOSE_MS]);
  });

  it('cancels a pending close when a new request arrives', async () => {
    const { renderer: subject, closedAt } = renderer(vi.fn<LoadPage>(async () => PAGE));
    await subject.render(CALL);
    await vi.advanceTimersByTimeAsync(30_000);
    await subject.render(CALL);
    await vi.advanceTimersByTimeAsync(10 * IDLE_CLOSE_MS);
    expect(closedAt).toEqual([30_000 + IDLE_CLOSE_MS]);
  });
});

describe('Renderer: page cap', () => {
  it('leaves prepared pages only the room that rendering pages leave under maxPages', async () => {
    const slow = deferred<RenderedPage>();
    const load = vi.fn<LoadPage>(async () => PAGE).mockReturnValueOnce(slow.promise);
    const { renderer: subject, spareRooms } = renderer(load);
    const capped = { ...CALL, fleet: { ...CALL.fleet, maxPages: 2 } };
    const first = subject.render(capped);
    await subject.render(capped);
    slow.resolve(PAGE);
    await first;
    await subject.render(capped);
    expect(spareRooms).toEqual([1, 0, 1]);
  });
});
