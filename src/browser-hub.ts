// The Durable Object that owns a browser session across requests (a Worker isolate cannot keep a
// WebSocket from one request to the next; a Durable Object can). One instance per launch location,
// so a session is only ever reused for the location it was launched in. It opens a page per
// request, loads it, and returns plain data (render-protocol.ts), errors included.
import { DurableObject } from 'cloudflare:workers';
import { BrowserPool } from './browser-pool.js';
import type { Env } from './config.js';
import { loadPage } from './page-load.js';
import { toWireError, type RenderCall, type RenderOutcome } from './render-protocol.js';
import { PhaseTimer } from './timings.js';

export class BrowserHub extends DurableObject<Env> {
  private pool?: BrowserPool;
  private active = 0;
  private idleTimer?: ReturnType<typeof setTimeout>;

  async render(call: RenderCall): Promise<RenderOutcome> {
    this.pool ??= new BrowserPool(this.env.BROWSER, call.location);
    const pool = this.pool;
    const timer = new PhaseTimer();
    this.active++;
    clearTimeout(this.idleTimer);
    let opened: Awaited<ReturnType<BrowserPool['openPage']>> | undefined;
    try {
      opened = await timer.time('acquire', () => pool.openPage({ proxy: call.proxy, blockResources: call.blockResources }));
      const page = await loadPage(opened.page, call.load, timer);
      return { ok: true, page, timings: Object.fromEntries(timer.durations), launches: pool.launches };
    } catch (error) {
      return { ok: false, error: toWireError(error), timings: Object.fromEntries(timer.durations), launches: pool.launches };
    } finally {
      // Closed on every path, but not on the response's critical path.
      void opened?.close();
      this.active--;
      if (this.active === 0) this.idleTimer = setTimeout(() => void pool.close(), call.idleCloseMs);
    }
  }
}
