// One fetch from a validated request to the content the caller gets: the target guard, the browser
// hub of the request's location, and the conversion of documents the browser does not make markdown
// of. POST /api/fetch and the MCP tool both answer with it, so they cannot drift apart.
import type { Context } from 'hono';
import type { RenderCall, RenderedPage } from '../browser/index.js';
import { contentTooLarge, fromWireError } from '../errors.js';
import { targetGuard } from '../guard/policy.js';
import type { BrowserLocation } from '../locations.js';
import { PhaseTimer, type Phase } from '../timings.js';
import { utf8Length } from '../utf8.js';
import type { AppEnv } from './app-env.js';
import type { Config } from './config.js';
import { egressName } from './egress.js';
import type { FetchRequest } from './fetch-request.js';
import { renderContent } from './output.js';

export interface FetchedPage {
  /** The content in the requested format. */
  content: string;
  page: RenderedPage;
  timer: PhaseTimer;
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

/**
 * Loads the page of a validated request and returns its content; the request's log line learns the
 * target host, the options and the phase timings.
 * @throws ApiError forbidden_target before any browser work, or whatever the browser side reported.
 */
export async function fetchPage(c: Context<AppEnv>, request: FetchRequest): Promise<FetchedPage> {
  const config = c.get('config');
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
  return { content, page, timer };
}
