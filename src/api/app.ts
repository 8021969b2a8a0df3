// The Hono app: middleware order, the one route, and the one place errors become responses.
// Order on POST /api/fetch: request id → access log → config → bearer auth (before the body is read)
// → per-token rate limit → body → validation → target guard → browser. Every response carries
// X-Request-Id; errors use the body shape of DESIGN.md and never include a stack trace.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import type { RenderCall } from '../browser/index.js';
import { ApiError, asApiError, causeText, contentTooLarge, fromWireError } from '../errors.js';
import { targetGuard } from '../guard/policy.js';
import type { BrowserLocation } from '../locations.js';
import { PhaseTimer, type Phase } from '../timings.js';
import { utf8Length, wellFormed } from '../utf8.js';
import { accessLog } from './access-log.js';
import type { AppEnv } from './app-env.js';
import { bearerAuth } from './auth.js';
import { readConfig, type Config } from './config.js';
import { egressName } from './egress.js';
import { parseFetchRequest, type FetchRequest } from './fetch-request.js';
import { discardBody, readJsonBody } from './json-body.js';
import { openApiDocument } from './openapi.js';
import { contentTypeFor, renderContent } from './output.js';
import { playgroundRoutes } from './playground/routes.js';
import { rateLimit } from './rate-limit.js';

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

/** The hub instance name for a launch location: a browser is only reused where it was launched. */
function hubName(location: BrowserLocation | undefined): string {
  return `browser-hub:${location ?? 'any'}`;
}

function renderCall(request: FetchRequest, config: Config): RenderCall {
  const { egress } = request;
  return {
    location: egress.kind === 'direct' ? egress.location : undefined,
    setup: {
      proxy: egress.kind === 'proxy' ? egress.route : undefined,
      blockResources: config.blockMedia,
      guard: { allowPrivateNetwork: config.allowPrivateNetwork },
    },
    load: {
      url: request.url,
      waitEvent: request.waitEvent,
      waitMs: request.waitMs,
      navigationTimeoutMs: config.navigationTimeoutMs,
      maxContentBytes: config.maxContentBytes,
      format: request.outputFormat,
      // Ignored with raw: the content alone has no place for it.
      metadata: request.includeMetadata && !request.raw,
      mainContent: request.onlyMainContent,
    },
    idleCloseMs: config.browserIdleCloseMs,
  };
}

function logOptions(request: FetchRequest): Record<string, unknown> {
  const { egress } = request;
  return {
    output_format: request.outputFormat,
    wait_event: request.waitEvent,
    wait_ms: request.waitMs,
    raw: request.raw,
    include_metadata: request.includeMetadata,
    only_main_content: request.onlyMainContent,
    proxy_name: egressName(egress),
    country: egress.kind === 'direct' ? egress.location : egress.country,
  };
}

export function createApp() {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(accessLog());
  app.use(async function loadConfig(c, next) {
    c.set('config', readConfig(c.env));
    await next();
  });

  app.post('/api/fetch', bearerAuth(), rateLimit(), async (c) => {
    const config = c.get('config');
    const request = parseFetchRequest(await readJsonBody(c.req.raw), config);
    Object.assign(c.get('log'), { targetHost: new URL(request.url).hostname, options: logOptions(request) });
    const call = renderCall(request, config);
    // The same guard settings the browser side applies to every request it makes.
    targetGuard(call.setup.guard).assertUrlAllowed(request.url);

    const hub = c.env.BROWSER_HUB.get(c.env.BROWSER_HUB.idFromName(hubName(call.location)));
    const outcome = await hub.render(call);
    const timer = new PhaseTimer();
    for (const [phase, ms] of Object.entries(outcome.timings)) timer.record(phase as Phase, ms);
    c.get('log').timer = timer;
    if (!outcome.ok) throw fromWireError(outcome.error);
    const { page } = outcome;

    const content = await timer.time('convert', () => renderContent(page, request.outputFormat));
    // The browser side measured what it returned; only content converted here can differ.
    if (content !== page.content && utf8Length(content) > config.maxContentBytes) throw contentTooLarge(config.maxContentBytes);

    c.header('X-Final-Url', page.finalUrl);
    c.header('X-Wait-Result', page.waitResult);
    c.header('X-Page-Status', String(page.status));
    if (request.onlyMainContent) c.header('X-Content-Mode', page.contentMode ?? 'full');
    c.header('Server-Timing', timer.header());
    c.header('Cache-Control', 'no-store');
    // The JSON answer escapes lone surrogates; a raw body must be valid UTF-8 as its charset says.
    if (request.raw) return c.body(wellFormed(content), 200, { 'Content-Type': contentTypeFor(request.outputFormat) });
    const envelope = { data: content, status: page.status, headers: page.headers };
    return c.json(request.includeMetadata ? { ...envelope, metadata: page.metadata ?? null } : envelope);
  });

  // Liveness for load balancers and monitors: no auth, no browser.
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/', playgroundRoutes()); // GET / and /playground/*: the browser playground, no auth to load
  app.get('/openapi.json', (c) => c.json(openApiDocument(c.get('config'))));

  app.all('/api/fetch', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  app.notFound((c) => renderError(new ApiError('not_found'), c));
  app.onError(renderError);
  return app;
}
