// The Hono app: middleware order, the one route, and the one place errors become responses.
// Order on POST /api/fetch: request id → config → bearer auth (before the body is read) → per-token
// rate limit → body → validation → target guard → browser. Every response carries X-Request-Id;
// errors use the body shape of DESIGN.md and never include a stack trace.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv } from './app-env.js';
import { bearerAuth } from './auth.js';
import { benchRoutes } from './bench-routes.js';
import { rateLimit } from './rate-limit.js';
import { requestLog } from './request-log.js';
import { discardBody, readJsonBody } from './body.js';
import { fromWireError, hubName, type RenderCall } from './render-protocol.js';
import { proxyUsername, readConfig, type Config } from './config.js';
import { ApiError, asApiError, causeText } from './errors.js';
import { openApiDocument } from './openapi.js';
import { contentTooLarge } from './page-load.js';
import type { ProxyRoute } from './page-setup.js';
import { contentTypeFor, renderContent } from './output.js';
import { parseFetchRequest, type FetchRequest } from './request.js';
import { playgroundRoutes } from './playground/routes.js';
import { privateHostReason } from './target-guard.js';
import { PhaseTimer, type Phase } from './timings.js';
import { utf8Length } from './utf8.js';

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
  const apiError = asApiError(error);
  // Operators get the cause in the request's log line; the client only the stable public message.
  const log = c.get('log');
  if (log !== undefined) {
    log.errorCode = apiError.code;
    if (apiError.status >= 500) log.cause = causeText(apiError) ?? apiError.message;
  }
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(apiError.toBody(), apiError.status);
}

function renderCall(request: FetchRequest, config: Config): RenderCall {
  const proxy = proxyRoute(request, config);
  return {
    location: request.egress.kind === 'direct' ? request.egress.location : undefined,
    load: {
      url: request.url,
      waitEvent: request.waitEvent,
      waitMs: request.waitMs,
      navigationTimeoutMs: config.navigationTimeoutMs,
      maxContentBytes: config.maxContentBytes,
      proxyName: proxy?.name,
      guardPrivateNetwork: !config.allowPrivateNetwork,
    },
    proxy,
    blockResources: config.blockMedia,
    idleCloseMs: config.browserIdleCloseMs,
  };
}

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(requestLog());
  app.use(async function loadConfig(c, next) {
    c.set('config', readConfig(c.env));
    await next();
  });

  app.post('/api/fetch', bearerAuth(), rateLimit(), async (c) => {
    const config = c.get('config');
    const request = parseFetchRequest(await readJsonBody(c.req.raw), config);
    Object.assign(c.get('log'), {
      targetHost: new URL(request.url).hostname,
      options: {
        output_format: request.outputFormat,
        wait_event: request.waitEvent,
        wait_ms: request.waitMs,
        raw: request.raw,
        proxy_name: request.proxyName,
        country: request.egress.kind === 'direct' ? request.egress.location : request.egress.country,
      },
    });
    assertTargetAllowed(request.url, config);

    const call = renderCall(request, config);
    const hub = c.env.BROWSER_HUB.get(c.env.BROWSER_HUB.idFromName(hubName(call.location)));
    const outcome = await hub.render(call);
    const timer = new PhaseTimer();
    for (const [phase, ms] of Object.entries(outcome.timings)) timer.record(phase as Phase, ms);
    c.get('log').timer = timer;
    if (!outcome.ok) throw fromWireError(outcome.error);
    const { page } = outcome;

    const content = await timer.time('convert', () => renderContent(page, request.outputFormat));
    // HTML output is the DOM serialize() already measured; only converted content can differ.
    if (content !== page.html && utf8Length(content) > config.maxContentBytes) throw contentTooLarge(config.maxContentBytes);

    c.header('X-Final-Url', page.finalUrl);
    c.header('X-Wait-Result', page.waitResult);
    c.header('X-Page-Status', String(page.status));
    c.header('Server-Timing', timer.header());
    c.header('Cache-Control', 'no-store');
    if (request.raw) return c.body(content, 200, { 'Content-Type': contentTypeFor(request.outputFormat) });
    return c.json({ data: content, status: page.status, headers: page.headers });
  });

  // Liveness for load balancers and monitors: no auth, no browser.
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/', playgroundRoutes()); // GET / and /playground/*: the browser playground, no auth to load
  app.get('/openapi.json', (c) => c.json(openApiDocument(c.get('config'))));

  app.all('/api/fetch', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  app.use('/__bench/*', bearerAuth(), rateLimit());
  app.route('/__bench', benchRoutes());
  app.notFound((c) => renderError(new ApiError('not_found'), c));
  app.onError(renderError);
  return app;
}
