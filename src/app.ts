// The Hono app: middleware order, the one route, and the one place errors become responses.
// Order on POST /api/fetch: request id → config → bearer auth (before the body is read) → body →
// validation → target guard → browser. Every response carries X-Request-Id; errors use the body
// shape of DESIGN.md and never include a stack trace.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv } from './app-env.js';
import { bearerAuth } from './auth.js';
import { discardBody, readJsonBody } from './body.js';
import { acquireBrowser, type LaunchBrowser } from './browser-session.js';
import { proxyUsername, readConfig, type Config } from './config.js';
import { ApiError } from './errors.js';
import { contentTooLarge, loadPage, type ProxyRoute } from './page-load.js';
import { contentTypeFor, renderContent } from './output.js';
import { parseFetchRequest, type FetchRequest } from './request.js';
import { privateHostReason } from './target-guard.js';
import { PhaseTimer } from './timings.js';

function assertTargetAllowed(url: string, config: Config): void {
  if (config.allowPrivateNetwork) return;
  const reason = privateHostReason(new URL(url).hostname);
  if (reason !== null) throw new ApiError('forbidden_target', `The target host is not allowed (${reason}).`);
}

function proxyRoute(request: FetchRequest, config: Config): ProxyRoute | undefined {
  const { egress } = request;
  if (egress.kind !== 'proxy') return undefined;
  const proxy = config.proxies.get(egress.name);
  if (proxy === undefined) return undefined;
  return { name: egress.name, server: proxy.server, username: proxyUsername(proxy, egress.country), password: proxy.password };
}

async function renderError(error: unknown, c: Context<AppEnv>): Promise<Response> {
  await discardBody(c.req.raw);
  const apiError = error instanceof ApiError ? error : new ApiError('internal_error', undefined, { cause: error });
  if (apiError.status >= 500) {
    // Operators get the cause; the client only the stable public message.
    const cause = apiError.cause instanceof Error ? apiError.cause.message : String(apiError.cause ?? '');
    console.error(JSON.stringify({ requestId: c.get('requestId'), code: apiError.code, message: apiError.message, cause }));
  }
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(apiError.toBody(), apiError.status);
}

export interface AppOptions {
  /** Replaces puppeteer.launch; unit tests use it to observe launches without a browser. */
  launchBrowser?: LaunchBrowser;
}

export function createApp(options: AppOptions = {}) {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(async function loadConfig(c, next) {
    c.set('config', readConfig(c.env));
    await next();
  });

  app.post('/api/fetch', bearerAuth(), async (c) => {
    const config = c.get('config');
    const request = parseFetchRequest(await readJsonBody(c.req.raw), config);
    assertTargetAllowed(request.url, config);

    const timer = new PhaseTimer();
    const location = request.egress.kind === 'direct' ? request.egress.location : undefined;
    const lease = await timer.time('acquire', () => acquireBrowser(c.env.BROWSER, location, options.launchBrowser));
    try {
      const page = await loadPage(
        lease.browser,
        {
          url: request.url,
          waitEvent: request.waitEvent,
          waitMs: request.waitMs,
          navigationTimeoutMs: config.navigationTimeoutMs,
          maxContentBytes: config.maxContentBytes,
          proxy: proxyRoute(request, config),
        },
        timer,
      );
      const content = await timer.time('convert', () => renderContent(page, request.outputFormat));
      if (new TextEncoder().encode(content).byteLength > config.maxContentBytes) throw contentTooLarge(config.maxContentBytes);

      c.header('X-Final-Url', page.finalUrl);
      c.header('X-Wait-Result', page.waitResult);
      c.header('X-Page-Status', String(page.status));
      c.header('Server-Timing', timer.header());
      c.header('Cache-Control', 'no-store');
      if (request.raw) return c.body(content, 200, { 'Content-Type': contentTypeFor(request.outputFormat) });
      return c.json({ data: content, status: page.status, headers: page.headers });
    } finally {
      await lease.release();
    }
  });

  app.all('/api/fetch', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  app.notFound((c) => renderError(new ApiError('not_found'), c));
  app.onError(renderError);
  return app;
}
