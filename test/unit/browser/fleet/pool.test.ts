import type { Browser, BrowserWorker } from '@cloudflare/puppeteer';
import { describe, expect, it, vi } from 'vitest';
import { preparePage } from '../../../../src/browser/page/page-setup.js';
import {
  BrowserPool,
  MAX_SESSION_KEEP_ALIVE_MS,
  SESSION_KEEP_ALIVE_MS,
  SPARE_PAGES,
  sessionKeepAliveMs,
  type LaunchBrowser,
} from '../../../../src/browser/fleet/pool.js';
import { ApiError } from '../../../../src/errors.js';

const binding = { fetch } as BrowserWorker;

/** A browser double with just what the pool and page setup use. */
function fakeBrowser() {
  const listeners = new Map<string, () => void>();
  const contexts: { options: unknown; closed: boolean; page: unknown; crash: () => void }[] = [];
  const browser = {
    connected: true,
    on: (event: string, handler: () => void) => listeners.set(event, handler),
    close: vi.fn(async () => undefined),
    createBrowserContext: vi.fn(async (options: unknown) => {
      const pageListeners = new Map<string, ((payload: unknown) => void)[]>();
      // The tab crashing: puppeteer's 'error' event on the page.
      const crash = () => {
        for (const handler of pageListeners.get('error') ?? []) handler(new Error('Page crashed!'));
      };
      const record = { options, closed: false, page: undefined as unknown, crash };
      contexts.push(record);
      const page = {
        on: (event: string, handler: (payload: unknown) => void) =>
          pageListeners.set(event, [...(pageListeners.get(event) ?? []), handler]),
        isClosed: () => record.closed,
        authenticate: vi.fn(async () => undefined),
        createCDPSession: async () => ({ on: () => undefined, send: async () => ({}) }),
        // No frames yet: the request filter watches each frame's session for address reports.
        frames: () => [],
        evaluateOnNewDocument: vi.fn(async () => ({ identifier: '1' })),
        exposeFunction: vi.fn(async () => undefined),
        removeScriptToEvaluateOnNewDocument: vi.fn(async () => undefined),
      };
      record.page = page;
      return {
        newPage: async () => page,
        close: async () => {
          record.closed = true;
        },
      };
    }),
    disconnect() {
      browser.connected = false;
      listeners.get('disconnected')?.();
    },
  };
  return { browser, contexts, asBrowser: browser as unknown as Browser };
}

function poolWith(launch: LaunchBrowser, limits = vi.fn(async () => ({ timeUntilNextAllowedBrowserAcquisition: 0 }))) {
  return new BrowserPool(binding, 'DE', { launch, limits, retryDelaysMs: [1, 1] });
}

const SETUP = { blockResources: true, guard: { allowPrivateNetwork: false } };
/** Lets the pages prepared in the background be made. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('sessionKeepAliveMs', () => {
  it.each([
    [60_000, SESSION_KEEP_ALIVE_MS],
    [300_000, 360_000],
    [540_000, MAX_SESSION_KEEP_ALIVE_MS],
    [3_600_000, MAX_SESSION_KEEP_ALIVE_MS],
  ])('keeps the session of a browser closed after %i ms idle for %i ms', (idleCloseMs, keepAliveMs) => {
    expect(sessionKeepAliveMs(idleCloseMs)).toBe(keepAliveMs);
  });
});

describe('BrowserPool', () => {
  it('launches in its location with a keep-alive, once for many pages', async () => {
    const fake = fakeBrowser();
    const launch = vi.fn<LaunchBrowser>(async () => fake.asBrowser);
    const pool = poolWith(launch);
    for (let i = 0; i < 3; i++) await pool.openPage(SETUP);
    expect(launch).toHaveBeenCalledTimes(1);
    expect(launch).toHaveBeenCalledWith(binding, { keep_alive: SESSION_KEEP_ALIVE_MS, location: 'DE' });
    expect(pool.launches).toBe(1);
  });

  it('launches with a keep-alive past its idle close', async () => {
    const fake = fakeBrowser();
    const launch = vi.fn<LaunchBrowser>(async () => fake.asBrowser);
    await new BrowserPool(binding, undefined, { launch, idleCloseMs: 300_000 }).openPage(SETUP);
    expect(launch).toHaveBeenCalledWith(binding, { keep_alive: 360_000 });
  });

  it('shares one launch between concurrent callers', async () => {
    const fake = fakeBrowser();
    const launch = vi.fn<LaunchBrowser>(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return fake.asBrowser;
    });
    const pool = poolWith(launch);
    const pages = await Promise.all(Array.from({ length: 5 }, () => pool.openPage(SETUP)));
    expect(launch).toHaveBeenCalledTimes(1);
    expect(new Set(pages.map((p) => p.page)).size).toBe(5);
  });

  it('prepares spare pages only within the room the caller leaves, read once the browser is there, and closes the rest', async () => {
    const fake = fakeBrowser();
    let room = 2;
    const pool = poolWith(async () => {
      room = 0; // renders started while the browser launched
      return fake.asBrowser;
    });
    await pool.openPage(SETUP, () => room);
    expect(fake.contexts).toHaveLength(1);
    room = 2;
    await pool.openPage(SETUP, () => room);
    expect(fake.contexts).toHaveLength(4); // this page and two spares
    room = 1;
    await pool.openPage(SETUP, () => room); // takes a spare, keeps one
    expect(fake.contexts.filter((context) => !context.closed)).toHaveLength(4);
    room = 0;
    await pool.openPage(SETUP, () => room); // takes the last spare, prepares none
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.contexts).toHaveLength(4);
  });

  it('gives every page a context of its own', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    const first = await pool.openPage(SETUP);
    const second = await pool.openPage(SETUP);
    expect(first.context).not.toBe(second.context);
    await first.close();
    expect(fake.contexts.filter((c) => c.closed)).toHaveLength(1);
  });

  it('keeps SPARE_PAGES pages prepared ahead of time and hands each out once', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    const first = await pool.openPage(SETUP);
    await settle();
    // One context for the first request, SPARE_PAGES made ready behind it.
    expect(fake.browser.createBrowserContext).toHaveBeenCalledTimes(1 + SPARE_PAGES);
    const handedOut = [first.context];
    for (let i = 1; i <= SPARE_PAGES + 1; i++) {
      const opened = await pool.openPage(SETUP);
      handedOut.push(opened.context);
      await opened.close();
      await settle();
      // Each request took a prepared page and, once done with it, one more was prepared in its place.
      expect(fake.browser.createBrowserContext).toHaveBeenCalledTimes(1 + SPARE_PAGES + i);
    }
    expect(new Set(handedOut).size).toBe(handedOut.length);
  });

  it('leaves a prepared page to single fetches: a job page takes one only while another stays ready', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    const first = await pool.openPage(SETUP);
    await settle();
    const spares = fake.contexts.map((context) => context.page).filter((page) => page !== first.page);
    expect(spares).toHaveLength(SPARE_PAGES);
    // SPARE_PAGES (2) ready: the job page takes one and leaves the other.
    const firstJob = await pool.openPage(SETUP, undefined, Infinity, true);
    expect(spares).toContain(firstJob.page);
    // One ready: the next job page builds its own, and the spares are made up to SPARE_PAGES again.
    const secondJob = await pool.openPage(SETUP, undefined, Infinity, true);
    expect(spares).not.toContain(secondJob.page);
    expect(fake.contexts).toHaveLength(1 + SPARE_PAGES + 2);
    // The fetch that comes finds the one left.
    const fetch = await pool.openPage(SETUP);
    expect(spares).toContain(fetch.page);
    expect(new Set([firstJob.page, fetch.page]).size).toBe(2);
    await Promise.all([first.close(), firstJob.close(), secondJob.close(), fetch.close()]);
  });

  it('prepares the replacement of a page it took from the spares only once that page is closed', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    await pool.openPage(SETUP);
    await settle();
    const taken = await pool.openPage(SETUP);
    await settle();
    // Building a page busies the browser: nothing is built while the taken page navigates.
    expect(fake.browser.createBrowserContext).toHaveBeenCalledTimes(1 + SPARE_PAGES);
    await taken.close();
    await settle();
    expect({
      made: fake.browser.createBrowserContext.mock.calls.length,
      takenClosed: fake.contexts.find((record) => record.page === taken.page)?.closed,
    }).toEqual({
      made: 2 + SPARE_PAGES,
      takenClosed: true,
    });
  });

  it('prepares no replacement for a page taken from a browser it has since dropped', async () => {
    const first = fakeBrowser();
    const second = fakeBrowser();
    const pool = poolWith(vi.fn<LaunchBrowser>().mockResolvedValueOnce(first.asBrowser).mockResolvedValueOnce(second.asBrowser));
    await pool.openPage(SETUP);
    await settle();
    const taken = await pool.openPage(SETUP);
    pool.discard(first.asBrowser);
    await taken.close();
    await settle();
    expect(first.browser.createBrowserContext).toHaveBeenCalledTimes(1 + SPARE_PAGES);
  });

  it('keeps as many pages ready as it is told', async () => {
    const fake = fakeBrowser();
    const pool = new BrowserPool(binding, undefined, { launch: async () => fake.asBrowser, sparePages: 1 });
    await pool.openPage(SETUP);
    await settle();
    expect(fake.browser.createBrowserContext).toHaveBeenCalledTimes(2);
  });

  /** A pool whose next spare page (the first one made after the first request) crashed before use. */
  async function poolWithCrashedSpare() {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    const first = await pool.openPage(SETUP);
    await settle();
    // The spares are queued in the order they were made: the first one is what the next request takes.
    const spare = fake.contexts.find((record) => record.page !== first.page)!;
    spare.crash();
    return { pool, spare };
  }

  it('does not hand out a prepared page whose tab crashed before it was taken', async () => {
    const { pool, spare } = await poolWithCrashedSpare();
    const opened = await pool.openPage(SETUP);
    expect(opened.page).not.toBe(spare.page);
  });

  it('closes a prepared page whose tab crashed once it comes up to be taken', async () => {
    const { pool, spare } = await poolWithCrashedSpare();
    await pool.openPage(SETUP);
    expect(spare.closed).toBe(true);
  });

  it('routes a proxied page through its own proxied context, never the spare', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    const proxy = { name: 'resi', server: 'http://proxy.test:8080', username: 'u', password: 'p' };
    const opened = await pool.openPage({ ...SETUP, proxy });
    expect(fake.browser.createBrowserContext).toHaveBeenCalledWith({ proxyServer: 'http://proxy.test:8080' });
    // Never puppeteer's page.authenticate: it answers a target's challenge with the proxy's credentials too.
    expect((opened.page as unknown as { authenticate: ReturnType<typeof vi.fn> }).authenticate).not.toHaveBeenCalled();
  });

  it('replaces a browser that disconnected (crash, expiry, recycling)', async () => {
    const first = fakeBrowser();
    const second = fakeBrowser();
    const launch = vi.fn<LaunchBrowser>().mockResolvedValueOnce(first.asBrowser).mockResolvedValueOnce(second.asBrowser);
    const pool = poolWith(launch);
    await pool.openPage(SETUP);
    first.browser.disconnect();
    const opened = await pool.openPage(SETUP);
    expect(launch).toHaveBeenCalledTimes(2);
    expect(opened.browser).toBe(second.asBrowser);
  });

  it('retries a refused launch within its bound, then succeeds', async () => {
    const fake = fakeBrowser();
    const launch = vi
      .fn<LaunchBrowser>()
      .mockRejectedValueOnce(new Error('Unable to create new browser: code: 429'))
      .mockResolvedValueOnce(fake.asBrowser);
    const pool = poolWith(launch);
    await expect(pool.openPage(SETUP)).resolves.toBeDefined();
    expect(launch).toHaveBeenCalledTimes(2);
  });

  it('answers browser_unavailable with Retry-After from the binding limits after the retries', async () => {
    const launch = vi.fn<LaunchBrowser>(async () => {
      throw new Error('Unable to create new browser: code: 429: message: Too many browsers already running');
    });
    const limits = vi.fn(async () => ({ timeUntilNextAllowedBrowserAcquisition: 7200 }));
    const error = await poolWith(launch, limits)
      .openPage(SETUP)
      .catch((e: unknown) => e);
    expect(launch).toHaveBeenCalledTimes(3);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('browser_unavailable');
    expect((error as ApiError).headers['Retry-After']).toBe('8');
  });

  it('retries a refused launch only while the next try starts within the launch retry time it is given', async () => {
    const refused = () => vi.fn<LaunchBrowser>().mockRejectedValue(new Error('code: 429: Too many browsers already running'));
    const attempts = async (launchRetryMs: number) => {
      const launch = refused();
      const pool = new BrowserPool(binding, 'DE', {
        launch,
        limits: async () => ({ timeUntilNextAllowedBrowserAcquisition: 0 }),
        retryDelaysMs: [20, 200],
      });
      const error = await pool.openPage(SETUP, undefined, launchRetryMs).catch((e: unknown) => e);
      expect((error as ApiError).code).toBe('browser_unavailable');
      return launch.mock.calls.length;
    };
    expect([await attempts(0), await attempts(100), await attempts(Infinity)]).toEqual([1, 2, 3]);
  });

  it('falls back to Retry-After 5 when the limits cannot be read, and launches again on the next call', async () => {
    const fake = fakeBrowser();
    const launch = vi.fn<LaunchBrowser>().mockRejectedValue(new Error('down'));
    const limits = vi.fn(async () => {
      throw new Error('no limits');
    });
    const pool = poolWith(launch, limits);
    const error = (await pool.openPage(SETUP).catch((e: unknown) => e)) as ApiError;
    expect(error.headers['Retry-After']).toBe('5');
    launch.mockResolvedValue(fake.asBrowser);
    await expect(pool.openPage(SETUP)).resolves.toBeDefined();
  });

  it('closes its browser on idle shutdown', async () => {
    const fake = fakeBrowser();
    const pool = poolWith(async () => fake.asBrowser);
    await pool.openPage(SETUP);
    await pool.close();
    expect(fake.browser.close).toHaveBeenCalledOnce();
  });
});

describe('preparePage', () => {
  it('is usable while its tab runs', async () => {
    const fake = fakeBrowser();
    const prepared = await preparePage(fake.asBrowser, SETUP);
    expect(prepared.usable()).toBe(true);
  });

  it('is no longer usable once its tab crashed', async () => {
    const fake = fakeBrowser();
    const prepared = await preparePage(fake.asBrowser, SETUP);
    fake.contexts[0]!.crash();
    expect(prepared.usable()).toBe(false);
  });
});
