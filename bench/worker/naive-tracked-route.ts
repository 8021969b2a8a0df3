// The second baseline of the e2e benchmark, between the naive one and the service: a browser launched
// per request and closed after, as in naive-routes.ts, but the page opened and loaded by the service's
// own code (preparePage, loadPage: our network tracker's networkIdle instead of puppeteer's
// networkidle0). Naive against this isolates the wait signal; this against the service isolates
// browser reuse (shared browser, prepared pages).
import puppeteer from '@cloudflare/puppeteer';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/api/app-env.js';
import { DEFAULT_WAIT_MS } from '../../src/api/fetch-request.js';
import { loadPage } from '../../src/browser/page/page-load.js';
import { preparePage } from '../../src/browser/page/page-setup.js';
import { PhaseTimer } from '../../src/shared/timings.js';
import { readBaselineBody } from './naive-routes.js';

export function naiveTrackedRoutes() {
  const routes = new Hono<AppEnv>();
  routes.post('/naive-tracked', async (c) => {
    const { url, waitEvent } = await readBaselineBody(c.req.raw);
    const config = c.get('config');
    const timer = new PhaseTimer();
    const browser = await timer.time('acquire', () => puppeteer.launch(c.env.BROWSER));
    try {
      // The same setup and load options the service's render call carries (src/api/app.ts).
      const opened = await timer.time('acquire', () =>
        preparePage(browser, { blockResources: config.blockMedia, guard: { allowPrivateNetwork: config.allowPrivateNetwork } }),
      );
      const page = await loadPage(
        opened,
        {
          url,
          waitEvent,
          waitMs: DEFAULT_WAIT_MS,
          scrollSteps: 0,
          consent: 'reject',
          navigationTimeoutMs: config.navigationTimeoutMs,
          maxContentBytes: config.maxContentBytes,
          maxPdfBytes: config.maxPdfBytes,
          maxPdfPages: config.maxPdfPages,
          format: 'html',
          metadata: false,
          mainContent: false,
        },
        timer,
      );
      return c.body(page.content, 200, {
        'Content-Type': 'text/html; charset=utf-8',
        'X-Wait-Result': page.waitResult,
        'Server-Timing': timer.header(),
      });
    } finally {
      // Closed before answering, as the naive route does: the launch-per-request cost stays in.
      await browser.close().catch(() => undefined);
    }
  });
  return routes;
}
