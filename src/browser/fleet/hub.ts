// The Durable Object that owns a browser session across requests (a Worker isolate cannot keep a
// WebSocket from one request to the next; a Durable Object can). Named by its location's directory
// (directory.ts: location and index), so a session is only ever reused for the location it was
// launched in. Only wiring: the binding becomes a BrowserPool, and renderer.ts renders each call
// (retry, idle close) as plain data.
import { DurableObject } from 'cloudflare:workers';
import { loadPage } from '../page/page-load.js';
import { BrowserPool } from './pool.js';
import type { RenderCall, RenderOutcome } from '../render-call.js';
import { Renderer } from './renderer.js';

/** What the hub reads of the deployment's Env: only the Browser Rendering binding. */
export interface HubEnv {
  BROWSER: Fetcher;
}

export class BrowserHub extends DurableObject<HubEnv> {
  private readonly renderer = new Renderer(
    (location, idleCloseMs) => new BrowserPool(this.env.BROWSER, location, { idleCloseMs }),
    loadPage,
  );

  async render(call: RenderCall): Promise<RenderOutcome> {
    return this.renderer.render(call);
  }
}
