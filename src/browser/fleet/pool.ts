// One shared browser session and the pages opened in it. Model: a single browser serves every
// request of its owner (one Durable Object per launch location), each request in a context of its
// own; the browser is launched once (concurrent callers share the same launch), replaced when it
// disconnects (crash, expiry, recycling), and closed after a quiet period. Pages for the next
// requests are prepared ahead of time so the common path skips context and page creation.
import puppeteer, { type Browser, type BrowserWorker, type WorkersLaunchOptions } from '@cloudflare/puppeteer';
import { ApiError } from '../../errors.js';
import type { BrowserLocation } from '../../shared/locations.js';
import { preparePage, type PreparedPage } from '../page/page-setup.js';
import type { PageSetup } from '../render-call.js';

export type LaunchBrowser = (binding: BrowserWorker, options?: WorkersLaunchOptions) => Promise<Browser>;
export type BrowserLimits = (binding: BrowserWorker) => Promise<{ timeUntilNextAllowedBrowserAcquisition: number }>;

export interface BrowserPoolOptions {
  launch?: LaunchBrowser;
  limits?: BrowserLimits;
  /** Pauses between launch attempts; their count bounds the retries. */
  retryDelaysMs?: number[];
  /** How many prepared pages to keep ready (SPARE_PAGES unless set). */
  sparePages?: number;
  /** After how long without requests the browser is closed (BROWSER_IDLE_CLOSE_MS): its session's keep_alive follows. */
  idleCloseMs?: number;
}

/**
 * How long Browser Rendering keeps a session that gets no DevTools traffic (its keep_alive), unless
 * the idle close asks for longer: a hub evicted meanwhile leaves its session to end on its own.
 */
export const SESSION_KEEP_ALIVE_MS = 120_000;
/** Browser Rendering's longest keep_alive. */
export const MAX_SESSION_KEEP_ALIVE_MS = 600_000;
/** How much longer than the idle close a session is kept, so that the hub's own close comes first. */
const KEEP_ALIVE_MARGIN_MS = 60_000;

/**
 * The keep_alive for a browser the hub closes after `idleCloseMs` without requests: Browser Rendering
 * would otherwise end it at SESSION_KEEP_ALIVE_MS, whatever BROWSER_IDLE_CLOSE_MS says.
 */
export function sessionKeepAliveMs(idleCloseMs: number): number {
  return Math.min(MAX_SESSION_KEEP_ALIVE_MS, Math.max(SESSION_KEEP_ALIVE_MS, idleCloseMs + KEEP_ALIVE_MARGIN_MS));
}

/** Default Retry-After when the binding does not say when a browser may be had again. */
export const BROWSER_RETRY_AFTER_SECONDS = 5;
/**
 * Pages kept ready for the next requests. Two, measured (docs/browser-sessions.md): under load a second page in
 * preparation lets the browser build pages while others wait on the network, +5 % requests/s at
 * concurrency 8 over one; four gave nothing more.
 */
export const SPARE_PAGES = 2;

export class BrowserPool {
  private current?: Browser;
  private launching?: Promise<Browser>;
  private spares: Promise<PreparedPage | undefined>[] = [];
  private readonly launch: LaunchBrowser;
  private readonly limits: BrowserLimits;
  private readonly retryDelaysMs: number[];
  private readonly sparePages: number;
  private readonly keepAliveMs: number;
  /** Browsers launched by this pool so far (for diagnostics and benchmarks). */
  launches = 0;

  constructor(
    private readonly binding: BrowserWorker,
    private readonly location: BrowserLocation | undefined,
    options: BrowserPoolOptions = {},
  ) {
    this.launch = options.launch ?? ((endpoint, launchOptions) => puppeteer.launch(endpoint, launchOptions));
    this.limits = options.limits ?? ((endpoint) => puppeteer.limits(endpoint));
    this.retryDelaysMs = options.retryDelaysMs ?? [250, 1000];
    this.sparePages = options.sparePages ?? SPARE_PAGES;
    this.keepAliveMs = options.idleCloseMs === undefined ? SESSION_KEEP_ALIVE_MS : sessionKeepAliveMs(options.idleCloseMs);
  }

  /**
   * A fresh, isolated page in the shared browser; at most `spareRoom()` pages (and SPARE_PAGES) are
   * kept prepared beside it, so that prepared pages never take the browser past its page cap. The
   * room is read once the browser is there: other renders may have started while it launched.
   * A refused launch is retried only while the next try starts within `launchRetryMs` (the caller's queue time left).
   * A job page (`jobPage`) takes a prepared page only while another stays ready, and otherwise builds
   * its own: a single fetch that comes while a crawl runs finds one ready (docs/fleet.md "Job pages").
   * @throws ApiError browser_unavailable when no browser can be had within the retry bound.
   */
  async openPage(
    setup: PageSetup,
    spareRoom: () => number = () => this.sparePages,
    launchRetryMs = Infinity,
    jobPage = false,
  ): Promise<PreparedPage> {
    for (let attempt = 0; ; attempt++) {
      const browser = await this.connectedBrowser(launchRetryMs);
      const spares = Math.min(this.sparePages, spareRoom());
      const spare = setup.proxy === undefined && this.spares.length > (jobPage ? 1 : 0) ? await this.takeSpare(browser) : undefined;
      this.trimSpares(spares);
      if (spare !== undefined) return this.replacedOnClose(spare, setup, spareRoom);
      if (setup.proxy === undefined) this.prepareSpares(browser, setup, spares);
      try {
        return await preparePage(browser, setup);
      } catch (error) {
        // A session that died between the check and the call: replace it once, then give up.
        if (browser.connected || attempt > 0) throw error;
        this.forget(browser);
      }
    }
  }

  /** Drops a browser that failed mid-request (crashed, session gone); the next page gets a new one. */
  discard(browser: Browser): void {
    this.forget(browser);
    void browser.close().catch(() => undefined);
  }

  /** Closes the browser (idle shutdown); the next request launches a new one. */
  async close(): Promise<void> {
    const browser = this.current;
    if (browser === undefined) return;
    this.forget(browser);
    await browser.close().catch(() => undefined);
  }

  private async connectedBrowser(launchRetryMs: number): Promise<Browser> {
    if (this.current?.connected) return this.current;
    if (this.current !== undefined) this.forget(this.current);
    // Concurrent callers share one launch instead of racing to start a browser each. The directory
    // places its oldest request first, so the caller that starts the launch has the least time left.
    this.launching ??= this.launchWithRetries(launchRetryMs).finally(() => (this.launching = undefined));
    return this.launching;
  }

  /** Launches, pausing `retryDelaysMs` between refused attempts while the next try starts within `retryMs`. */
  private async launchWithRetries(retryMs: number): Promise<Browser> {
    const started = Date.now();
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retryDelaysMs.length; attempt++) {
      if (attempt > 0) {
        const pause = this.retryDelaysMs[attempt - 1]!;
        if (Date.now() - started + pause > retryMs) break;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      try {
        const browser = await this.launch(this.binding, {
          keep_alive: this.keepAliveMs,
          ...(this.location === undefined ? {} : { location: this.location }),
        });
        this.launches++;
        browser.on('disconnected', () => this.forget(browser));
        this.current = browser;
        return browser;
      } catch (error) {
        lastError = error;
      }
    }
    throw new ApiError('browser_unavailable', undefined, {
      cause: lastError,
      headers: { 'Retry-After': String(await this.retryAfterSeconds()) },
    });
  }

  /** Seconds until the binding allows another browser, from puppeteer.limits() when it answers. */
  private async retryAfterSeconds(): Promise<number> {
    try {
      const { timeUntilNextAllowedBrowserAcquisition: ms } = await this.limits(this.binding);
      return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : BROWSER_RETRY_AFTER_SECONDS;
    } catch {
      return BROWSER_RETRY_AFTER_SECONDS;
    }
  }

  private forget(browser: Browser): void {
    if (this.current !== browser) return;
    this.current = undefined;
    this.spares = [];
  }

  private async takeSpare(browser: Browser): Promise<PreparedPage | undefined> {
    const spare = this.spares.shift();
    const prepared = await spare;
    if (prepared === undefined) return undefined;
    if (prepared.browser === browser && browser.connected && prepared.usable()) return prepared;
    await prepared.close();
    return undefined;
  }

  /** Closes prepared pages beyond `count` (the room left under the page cap). */
  private trimSpares(count: number): void {
    for (const extra of this.spares.splice(count)) void extra.then((page) => page?.close());
  }

  /**
   * The spare, replaced once it is closed rather than now: building a page keeps the browser's main
   * thread busy, which would hold up this request's own navigation.
   */
  private replacedOnClose(spare: PreparedPage, setup: PageSetup, spareRoom: () => number): PreparedPage {
    return {
      ...spare,
      close: async () => {
        await spare.close();
        if (this.current === spare.browser && spare.browser.connected) {
          this.prepareSpares(spare.browser, setup, Math.min(this.sparePages, spareRoom()));
        }
      },
    };
  }

  private prepareSpares(browser: Browser, setup: PageSetup, count: number): void {
    while (this.spares.length < count) {
      this.spares.push(preparePage(browser, { ...setup, proxy: undefined }).catch(() => undefined));
    }
  }
}
