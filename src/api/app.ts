// The Hono app: middleware order, the routes, and the one place errors become responses.
// Order on POST /api/fetch: request id → access log → config → bearer auth (before the body is read)
// → per-token rate limit → body → validation → target guard → browser. Every response carries
// X-Request-Id; errors use the body shape of docs/api.md "Errors" and never include a stack trace.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import { ApiError, asApiError } from '../errors.js';
import { base64Bytes } from '../shared/bytes.js';
import type { Screenshot } from '../shared/screenshot.js';
import { wellFormed } from '../shared/utf8.js';
import { accessLog, logError } from './access-log.js';
import type { AppEnv } from './app-env.js';
import { bearerAuth } from './auth.js';
import { readConfig } from './config.js';
import { fetchPage } from './fetch-page.js';
import { parseFetchRequest } from './fetch-request.js';
import { discardBody, readJsonBody } from './json-body.js';
import { mapRoutes } from './map/routes.js';
import { type McpToolsOf, mcpRoutes } from './mcp/routes.js';
import { openApiDocument } from './openapi.js';
import { contentTypeFor } from './output.js';
import { playgroundRoutes } from './playground/routes.js';
import { rateLimit } from './rate-limit.js';

async function renderError(error: unknown, c: Context<AppEnv>): Promise<Response> {
  await discardBody(c.req.raw);
  const apiError = asApiError(error);
  logError(c.get('log'), apiError);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(apiError.toBody(), apiError.status);
}

function imageAnswer(c: Context<AppEnv>, screenshot: Screenshot | undefined): Response {
  if (screenshot === undefined) return c.body(null, 200);
  return c.body(base64Bytes(screenshot.data), 200, { 'Content-Type': screenshot.type });
}

/** `mcpTools`: tools the MCP endpoint offers beside fetch_page (the site tools, added by src/index.ts). */
export function createApp(options: { mcpTools?: McpToolsOf } = {}) {
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(accessLog());
  app.use(async function loadConfig(c, next) {
    c.set('config', readConfig(c.env));
    await next();
  });

  app.post('/api/fetch', bearerAuth(), rateLimit(), async (c) => {
    const request = parseFetchRequest(await readJsonBody(c.req.raw), c.get('config'));
    const { content, page, timer, age, blocked, bypassed } = await fetchPage(c, request);

    c.header('X-Final-Url', page.finalUrl);
    c.header('X-Wait-Result', page.waitResult);
    c.header('X-Page-Status', String(page.status));
    c.header('X-Document-Kind', page.documentKind);
    if (page.pdfPages !== undefined) c.header('X-Pdf-Pages', `${page.pdfPages.converted}/${page.pdfPages.total}`);
    if (request.onlyMainContent) c.header('X-Content-Mode', page.contentMode ?? 'full');
    if (request.includeSelectors !== undefined) c.header('X-Selector-Matches', String(page.selectorMatches ?? 0));
    if (request.screenshot?.selector !== undefined) c.header('X-Screenshot-Matches', String(page.screenshotMatches ?? 0));
    if (page.screenshotTruncated) c.header('X-Screenshot-Truncated', 'true');
    if (blocked !== undefined) c.header('X-Page-Blocked', blocked.vendor);
    c.header('X-Cache', bypassed ? 'BYPASS' : age === undefined ? 'MISS' : 'HIT');
    if (age !== undefined) c.header('Age', String(age));
    c.header('Server-Timing', timer.header());
    c.header('Cache-Control', 'no-store');
    // With a screenshot, raw answers the image alone (an empty body when its selector matched nothing).
    if (request.raw && request.screenshot !== undefined) return imageAnswer(c, page.screenshot);
    // The JSON answer escapes lone surrogates; a raw body must be valid UTF-8 as its charset says.
    if (request.raw) return c.body(wellFormed(content), 200, { 'Content-Type': contentTypeFor(request.outputFormat) });
    const envelope = {
      data: content,
      status: page.status,
      headers: page.headers,
      ...(request.includeMetadata ? { metadata: page.metadata ?? null } : {}),
      // A document without a DOM (a PDF, text, JSON) has none: an empty list.
      ...(request.includeLinks ? { links: page.links ?? [] } : {}),
      ...(request.includeImages ? { images: page.images ?? [] } : {}),
      ...(page.screenshot === undefined ? {} : { screenshot: page.screenshot }),
      ...(blocked === undefined ? {} : { blocked }),
    };
    return c.json(envelope);
  });

  // Liveness for load balancers and monitors: no auth, no browser.
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/', playgroundRoutes()); // GET / and /playground/*: the browser playground, no auth to load
  app.get('/openapi.json', (c) => c.json(openApiDocument(c.get('config'))));
  app.route('/', mcpRoutes(options.mcpTools)); // POST /mcp: the same fetch as an MCP tool
  app.route('/', mapRoutes()); // POST /api/map: a site's URLs from its sitemaps and start page

  app.all('/api/fetch', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  app.notFound((c) => renderError(new ApiError('not_found'), c));
  app.onError(renderError);
  return app;
}
