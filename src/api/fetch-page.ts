// One fetch from a validated request to the content the caller gets: the target guard, the store of
// renders (a hit answers without a Durable Object or a browser; a bot wall is never stored), the
// browser directory of the request's location, and the conversion of documents the browser does not
// make markdown of. POST /api/fetch, the MCP tool, the map's start page and every page of a job
// (src/jobs/) answer with it, so they cannot drift apart.
import type { Context } from 'hono';
import type { Blocked } from '../blocked/verdict.js';
import type { RenderCall } from '../browser/index.js';
import { contentTooLarge, fromWireError } from '../errors.js';
import { targetGuard } from '../guard/policy.js';
import { PhaseTimer, type Phase } from '../shared/timings.js';
import type { BrowserLocation } from '../shared/locations.js';
import { utf8Length } from '../shared/utf8.js';
import { logRequestEvent } from './access-log.js';
import type { AppEnv, RequestLog } from './app-env.js';
import { cacheKey } from './cache/cache-key.js';
import { RenderStore, type StoredRender } from './cache/render-store.js';
import type { Config } from './config.js';
import type { Env } from '../env.js';
import { type FetchRequest, requestOptions } from './fetch-request.js';
import { renderContent } from './output.js';
import { isPersonal } from './visit-fields.js';

export interface FetchedPage {
  /** The content in the requested format. */
  content: string;
  page: StoredRender;
  timer: PhaseTimer;
  /** Seconds since the stored render that answered (a hit); undefined when this request rendered. */
  age?: number;
  /** The page is a bot wall, not the target's content (docs/api.md "Blocked pages"); never from the store. */
  blocked?: Blocked;
  /** The request was personal (headers or cookies): the store was neither read nor written (X-Cache: BYPASS). */
  bypassed?: true;
}

/** The directory instance of a launch location: it admits the location's requests to its browsers. */
function directoryName(location: BrowserLocation | undefined): string {
  return `browser-directory:${location ?? 'any'}`;
}

/** A request's launch location; a proxied request has none of its own. */
function launchLocation(request: FetchRequest): BrowserLocation | undefined {
  return request.egress.kind === 'direct' ? request.egress.location : undefined;
}

/** The name of the directory that admits a request's browser work: its launch location's. */
export function fleetDirectoryName(request: FetchRequest): string {
  return directoryName(launchLocation(request));
}

function renderCall(request: FetchRequest, config: Config): RenderCall {
  const { egress } = request;
  return {
    location: launchLocation(request),
    setup: {
      proxy: egress.kind === 'proxy' ? egress.route : undefined,
      blockResources: config.blockMedia,
      guard: { allowPrivateNetwork: config.allowPrivateNetwork },
    },
    load: {
      url: request.url,
      waitEvent: request.waitEvent,
      waitMs: request.waitMs,
      ...(request.waitForSelector === undefined ? {} : { waitForSelector: request.waitForSelector }),
      scrollSteps: request.scroll ? config.maxScrollSteps : 0,
      consent: request.consent,
      ...(request.includeSelectors === undefined && request.excludeSelectors === undefined
        ? {}
        : { selection: { include: request.includeSelectors, exclude: request.excludeSelectors } }),
      navigationTimeoutMs: config.navigationTimeoutMs,
      maxContentBytes: config.maxContentBytes,
      maxPdfBytes: config.maxPdfBytes,
      maxPdfPages: config.maxPdfPages,
      format: request.outputFormat,
      // Read with raw too: the stored render must serve a later JSON answer with the same key.
      metadata: request.includeMetadata,
      mainContent: request.onlyMainContent,
      ...(isDefaultVisit(request.visit) ? {} : { visit: request.visit }),
      // Images are measured and pictured as they are rendered, loaded (a blocked one shows its alt text instead).
      ...(request.includeImages || request.screenshot !== undefined ? { loadMedia: true } : {}),
      ...(request.screenshot === undefined ? {} : { screenshot: { ...request.screenshot, maxHeight: config.maxScreenshotHeight } }),
      // Read with raw too, as the metadata: a stored render serves later JSON answers of its key.
      ...(request.includeLinks || request.includeImages
        ? { views: { ...(request.includeLinks ? { links: true } : {}), ...(request.includeImages ? { images: true } : {}) } }
        : {}),
    },
    idleCloseMs: config.browserIdleCloseMs,
    fleet: { maxBrowsers: config.maxBrowsersPerLocation, maxPages: config.maxPagesPerBrowser, queueMs: config.queueTimeoutMs },
  };
}

/** A visit that changes nothing about the browser is not sent: the page is used as prepared. */
const isDefaultVisit = (visit: FetchRequest['visit']) => visit.device === 'desktop' && visit.viewport === undefined && !isPersonal(visit);

/** What one fetch needs of where it runs: an HTTP request's context, or a job's page task. */
export interface FetchContext {
  env: Pick<Env, 'BROWSER_DIRECTORY' | 'CACHE'>;
  config: Config;
  requestId: string;
  /** The log line of the work the fetch belongs to; it learns the target host, options and timings. */
  log: RequestLog;
  /** Keeps work alive past the answer (the store's write). */
  waitUntil(promise: Promise<unknown>): void;
  /** A page of a crawl or batch job, which gives way to single fetches for a browser page. */
  jobPage?: boolean;
}

/** The fetch context of an HTTP request. */
export function requestFetchContext(c: Context<AppEnv>): FetchContext {
  return {
    env: c.env,
    config: c.get('config'),
    requestId: c.get('requestId'),
    log: c.get('log'),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
  };
}

/**
 * Loads the page of a validated request and returns its content, from the store when `max_age`
 * allows; the request's log line learns the target host, the options and the phase timings.
 * @throws ApiError forbidden_target before any browser work, or whatever the browser side reported.
 */
export function fetchPage(c: Context<AppEnv>, request: FetchRequest): Promise<FetchedPage> {
  return fetchPageIn(requestFetchContext(c), request);
}

/** fetchPage wherever it runs: the one path every page of the service takes. */
export async function fetchPageIn(c: FetchContext, request: FetchRequest): Promise<FetchedPage> {
  const { config } = c;
  Object.assign(c.log, { targetHost: new URL(request.url).hostname, options: requestOptions(request) });
  const call: RenderCall = { ...renderCall(request, config), ...(c.jobPage === true ? { jobPage: true } : {}) };
  // The same guard settings the browser side applies to every request it makes.
  targetGuard(call.setup.guard).assertUrlAllowed(request.url);

  const timer = new PhaseTimer();
  c.log.timer = timer;
  // A personal request (headers or cookies) never meets the store, either way (docs/api.md "Request controls").
  const personal = isPersonal(request.visit);
  const store = c.env.CACHE === undefined || personal ? undefined : new RenderStore(c.env.CACHE, config.maxCacheAge);
  const key = await cacheKey(request);
  if (store !== undefined && request.maxAge > 0) {
    const stored = await timer
      .time('cache', () => store.read(key, request.maxAge))
      .catch((error: unknown) => {
        // A store failure is logged and taken as a miss: availability over the saving.
        logRequestEvent(c.requestId, 'cache_read_failed', error);
        return undefined;
      });
    if (stored !== undefined) return { content: stored.render.content, page: stored.render, timer, age: stored.age };
  }

  // The location's directory admits the request to one of its browsers (or answers 503 when none
  // frees within QUEUE_TIMEOUT_MS). Requests that accept a stored render accept one taken while
  // they wait, too: max_age 0 always renders.
  const directory = c.env.BROWSER_DIRECTORY.get(c.env.BROWSER_DIRECTORY.idFromName(fleetDirectoryName(request)));
  const outcome = await directory.admit(request.maxAge > 0 && !personal ? { ...call, shareKey: key } : call);
  const renderedAt = Date.now();
  for (const [phase, ms] of Object.entries(outcome.timings)) timer.record(phase as Phase, ms);
  if (!outcome.ok) throw fromWireError(outcome.error);
  const { page } = outcome;

  const content = await timer.time('convert', () => renderContent(page, request.outputFormat));
  // The browser side measured what it returned; only content converted here can differ.
  if (content !== page.content && utf8Length(content) > config.maxContentBytes) throw contentTooLarge(config.maxContentBytes);
  const { status, headers, finalUrl, waitResult, contentMode, metadata, selectorMatches, documentKind, pdfPages } = page;
  const { links, images, screenshot, screenshotMatches, screenshotTruncated } = page;
  const render: StoredRender = {
    content,
    status,
    headers,
    finalUrl,
    waitResult,
    contentMode,
    metadata,
    selectorMatches,
    documentKind,
    pdfPages,
    links,
    images,
    screenshot,
    screenshotMatches,
    screenshotTruncated,
  };
  const { blocked } = page;
  if (blocked !== undefined) {
    c.log.blocked = blocked;
    // A wall is not the page: stored, it would answer for the page (docs/api.md "Blocked pages").
    return { content, page: render, timer, blocked, ...(personal ? { bypassed: true as const } : {}) };
  }
  // Off the answer's critical path; errors are never stored (they threw above).
  if (store !== undefined) {
    c.waitUntil(store.write(key, render, renderedAt).catch((error: unknown) => logRequestEvent(c.requestId, 'cache_write_failed', error)));
  }
  return { content, page: render, timer, ...(personal ? { bypassed: true as const } : {}) };
}
