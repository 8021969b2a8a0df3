// The naive baseline the e2e benchmark compares the service against, served by the benchmark's own
// Worker (bench/worker/index.ts; never in the production bundle). Naive means what most first
// versions do: launch a browser per request, goto with puppeteer's own wait, take the content, close.
import puppeteer, { type Page } from '@cloudflare/puppeteer';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/api/app-env.js';
import { readJsonBody } from '../../src/api/json-body.js';
import { ApiError } from '../../src/errors.js';
import { WAIT_EVENTS, type WaitEvent } from '../../src/shared/wait-events.js';

type GotoWait = Extract<NonNullable<NonNullable<Parameters<Page['goto']>[1]>['waitUntil']>, string>;

const PUPPETEER_WAIT: Record<WaitEvent, GotoWait> = {
  DOMContentLoaded: 'domcontentloaded',
  load: 'load',
  networkAlmostIdle: 'networkidle2',
  networkIdle: 'networkidle0',
};

/** The body every baseline route takes: `{ url, wait_event }` (wait_event defaults to load). */
export async function readBaselineBody(request: Request): Promise<{ url: string; waitEvent: WaitEvent }> {
  const body = (await readJsonBody(request)) as { url?: unknown; wait_event?: unknown };
  if (typeof body.url !== 'string') throw new ApiError('invalid_request');
  return { url: body.url, waitEvent: WAIT_EVENTS.find((event) => event === body.wait_event) ?? 'load' };
}

export function naiveRoutes() {
  const routes = new Hono<AppEnv>();
  routes.post('/naive', async (c) => {
    const { url, waitEvent } = await readBaselineBody(c.req.raw);
    const browser = await puppeteer.launch(c.env.BROWSER);
    try {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: PUPPETEER_WAIT[waitEvent], timeout: 30_000 });
      return c.body(await page.content(), 200, { 'Content-Type': 'text/html; charset=utf-8' });
    } finally {
      await browser.close().catch(() => undefined);
    }
  });
  return routes;
}
