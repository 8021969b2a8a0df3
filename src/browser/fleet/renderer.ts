// Renders calls on a shared browser pool: one retry on a fresh browser when the shared one died
// under a request, and the pool closed after a quiet period. Kept apart from the Durable Object
// (hub.ts) rather than stubbing 'cloudflare:workers' in tests: this is plain logic over two
// dependencies, so tests hand it a fake pool and loader, and the DO class is only wiring. The
// pool is created on the first call, in that call's launch location (one hub per location) and
// with its idle close (the browser session's keep-alive follows it, pool.ts).
import { ApiError, toWireError } from '../../errors.js';
import type { BrowserLocation } from '../../shared/locations.js';
import { PhaseTimer } from '../../shared/timings.js';
import type { LoadablePage } from '../page/page-load.js';
import type { PreparedPage } from '../page/page-setup.js';
import type { BrowserPool } from './pool.js';
import type { LoadOptions, RenderCall, RenderedPage, RenderOutcome } from '../render-call.js';

/** What the renderer uses of BrowserPool. */
export type RenderPool = Pick<BrowserPool, 'openPage' | 'discard' | 'close'>;
/** loadPage's shape (page-load.ts). */
export type LoadPage = (target: LoadablePage, options: LoadOptions, timer: PhaseTimer) => Promise<RenderedPage>;

// What puppeteer reports when the browser or its connection went away under a request.
const BROWSER_GONE = /Target closed|Session closed|Connection closed|frame was detached/i;

function isBrowserFailure(error: unknown, browser: { connected: boolean }): boolean {
  if (error instanceof ApiError && error.code !== 'internal_error') return false;
  const cause = error instanceof ApiError ? error.cause : error;
  return !browser.connected || (cause instanceof Error && BROWSER_GONE.test(cause.message));
}

export class Renderer {
  private pool?: RenderPool;
  private active = 0;
  private idleTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly createPool: (location: BrowserLocation | undefined, idleCloseMs: number) => RenderPool,
    private readonly load: LoadPage,
  ) {}

  async render(call: RenderCall): Promise<RenderOutcome> {
    this.pool ??= this.createPool(call.location, call.idleCloseMs);
    const pool = this.pool;
    const timer = new PhaseTimer();
    this.active++;
    clearTimeout(this.idleTimer);
    try {
      const page = await this.renderWithRetry(pool, call, timer);
      return { ok: true, page, timings: Object.fromEntries(timer.durations) };
    } catch (error) {
      return { ok: false, error: toWireError(error), timings: Object.fromEntries(timer.durations) };
    } finally {
      this.active--;
      if (this.active === 0) this.idleTimer = setTimeout(() => void pool.close(), call.idleCloseMs);
    }
  }

  /** One retry on a fresh browser when the shared one died under the request (crash, lost session). */
  private async renderWithRetry(pool: RenderPool, call: RenderCall, timer: PhaseTimer): Promise<RenderedPage> {
    for (let attempt = 0; ; attempt++) {
      let opened: PreparedPage | undefined;
      try {
        // Prepared pages count against the browser's page cap: only the room the renders leave.
        const spareRoom = () => Math.max(0, call.fleet.maxPages - this.active);
        opened = await timer.time('acquire', () => pool.openPage(call.setup, spareRoom, call.launchRetryMs, call.jobPage === true));
        return await this.load(opened, call.load, timer);
      } catch (error) {
        if (attempt > 0 || opened === undefined || !isBrowserFailure(error, opened.browser)) throw error;
        pool.discard(opened.browser);
      } finally {
        // Closed on every path, but not on the response's critical path.
        void opened?.close();
      }
    }
  }
}
