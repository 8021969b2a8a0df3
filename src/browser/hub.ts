// The Durable Object that owns a browser session across requests (a Worker isolate cannot keep a
// WebSocket from one request to the next; a Durable Object can). One instance per launch location,
// so a session is only ever reused for the location it was launched in. It opens a page per
// request, loads it, and returns plain data (render-call.ts), errors included.
import { DurableObject } from 'cloudflare:workers';
import { ApiError, toWireError } from '../errors.js';
import { PhaseTimer } from '../timings.js';
import { loadPage } from './page-load.js';
import type { PreparedPage } from './page-setup.js';
import { BrowserPool } from './pool.js';
import type { RenderCall, RenderedPage, RenderOutcome } from './render-call.js';

// What puppeteer reports when the browser or its connection went away under a request.
const BROWSER_GONE = /Target closed|Session closed|Connection closed|frame was detached/i;

function isBrowserFailure(error: unknown, browser: { connected: boolean }): boolean {
  if (error instanceof ApiError && error.code !== 'internal_error') return false;
  const cause = error instanceof ApiError ? error.cause : error;
  return !browser.connected || (cause instanceof Error && BROWSER_GONE.test(cause.message));
}

/** What the hub reads of the deployment's Env: only the Browser Rendering binding. */
export interface HubEnv {
  BROWSER: Fetcher;
}

export class BrowserHub extends DurableObject<HubEnv> {
  private pool?: BrowserPool;
  private active = 0;
  private idleTimer?: ReturnType<typeof setTimeout>;

  async render(call: RenderCall): Promise<RenderOutcome> {
    this.pool ??= new BrowserPool(this.env.BROWSER, call.location);
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
  private async renderWithRetry(pool: BrowserPool, call: RenderCall, timer: PhaseTimer): Promise<RenderedPage> {
    for (let attempt = 0; ; attempt++) {
      let opened: PreparedPage | undefined;
      try {
        opened = await timer.time('acquire', () => pool.openPage(call.setup));
        return await loadPage(opened, call.load, timer);
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
