// Loads one URL in a prepared page (page-setup.ts), waits per DESIGN.md "Waiting", and returns the
// serialized DOM as plain data. Budgets: the main document must commit within navigationTimeoutMs
// (else 504); the wait event is awaited until waitMs after navigation start (else the page is
// taken as it stands, waitResult "timeout"). Closing the page is the caller's job.
import type { Page } from '@cloudflare/puppeteer';
import { ApiError } from './errors.js';
import { utf8Length } from './utf8.js';
import { watchMainDocument, type MainDocument } from './main-document.js';
import { navigationError, netErrorName } from './navigation-errors.js';
import { trackNetwork, type NetworkTracker } from './network-tracker.js';
import type { WaitEvent } from './request.js';
import type { PhaseTimer } from './timings.js';

export interface LoadOptions {
  url: string;
  waitEvent: WaitEvent;
  waitMs: number;
  navigationTimeoutMs: number;
  maxContentBytes: number;
  /** Set when the page goes through an upstream proxy, so its failures are named proxy_error. */
  proxyName?: string;
  /**
   * Refuse private, loopback and local hosts inside the browser too (ALLOW_PRIVATE_NETWORK not
   * "true"), including a main document served from a private address (not checked through a proxy,
   * whose address that is).
   */
  guardPrivateNetwork: boolean;
}

export type WaitResult = 'event' | 'timeout';

/** How long after an aborted navigation to wait for Chrome to say it was a download. */
const DOWNLOAD_GRACE_MS = 250;

export interface RenderedPage {
  html: string;
  finalUrl: string;
  status: number;
  /** Response headers of the final main document, names lowercase. */
  headers: Record<string, string>;
  waitResult: WaitResult;
}

/** Timers that are all cleared together, so no wait outlives the request. */
class Timers {
  private readonly handles: ReturnType<typeof setTimeout>[] = [];
  after<T>(ms: number, value: T): Promise<T> {
    return new Promise((resolve) => this.handles.push(setTimeout(() => resolve(value), Math.max(0, ms))));
  }
  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
  }
}

function readinessSignal(event: WaitEvent, doc: MainDocument, network: NetworkTracker): Promise<void> {
  switch (event) {
    case 'DOMContentLoaded':
      return doc.domContentLoaded;
    case 'load':
      return doc.load;
    case 'networkAlmostIdle':
      return network.idle(2);
    case 'networkIdle':
      return network.idle(0);
  }
}

async function navigate(
  page: Page,
  options: LoadOptions,
  doc: MainDocument,
  timers: Timers,
  forbiddenNavigation: Promise<string>,
): Promise<void> {
  // goto's own waiting is not used: its rejection reports net errors, our signals do the rest.
  const failed = page.goto(options.url, { waitUntil: 'load', timeout: 0 }).then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => error,
  );
  const outcome = await Promise.race([
    doc.committed.then(() => ({ kind: 'committed' as const })),
    doc.unsupported.then((reason) => ({ kind: 'unsupported' as const, reason })),
    forbiddenNavigation.then((reason) => ({ kind: 'forbidden' as const, reason })),
    doc.forbiddenAddress.then((reason) => ({ kind: 'forbidden' as const, reason })),
    failed.then((error) => ({ kind: 'failed' as const, error })),
    timers.after(options.navigationTimeoutMs, { kind: 'timeout' as const }),
  ]);
  switch (outcome.kind) {
    case 'committed':
      // Chrome shows a proxy's 407 as the page once the credentials are refused again.
      if (options.proxyName !== undefined && doc.response()?.status() === 407) {
        throw new ApiError('proxy_error', `The upstream proxy "${options.proxyName}" rejected the credentials (407).`);
      }
      return;
    case 'unsupported':
      throw new ApiError('unsupported_content', outcome.reason);
    case 'forbidden':
      throw new ApiError('forbidden_target', `The target led to a host that is not allowed (${outcome.reason}).`);
    case 'failed': {
      // A download aborts the navigation first and is identified a moment later.
      if (netErrorName(outcome.error) === 'ERR_ABORTED') {
        const download = await Promise.race([doc.unsupported, timers.after(DOWNLOAD_GRACE_MS, undefined)]);
        if (download !== undefined) throw new ApiError('unsupported_content', download);
      }
      throw navigationError(outcome.error, options.proxyName);
    }
    case 'timeout':
      throw new ApiError('target_timeout', `The target did not answer within ${options.navigationTimeoutMs} ms.`);
  }
}

async function waitForReadiness(
  options: LoadOptions,
  doc: MainDocument,
  network: NetworkTracker,
  timers: Timers,
  navigationStart: number,
): Promise<WaitResult> {
  const budgetLeft = navigationStart + options.waitMs - Date.now();
  const result = await Promise.race([
    readinessSignal(options.waitEvent, doc, network).then(() => 'event' as const),
    timers.after(budgetLeft, 'timeout' as const),
  ]);
  if (result === 'timeout') {
    // A main document slower than the budget: give its body the chance to arrive (bounded by the
    // navigation timeout) so the page returned is the document, not an empty shell.
    const navigationLeft = navigationStart + options.navigationTimeoutMs - Date.now();
    await Promise.race([doc.domContentLoaded, doc.bodyLoaded, timers.after(navigationLeft, undefined)]);
  }
  return result;
}

/** How long the page may take to hand over its DOM; a page whose scripts never yield is given up on. */
const SERIALIZE_TIMEOUT_MS = 10_000;
const NAVIGATED_AWAY = /Execution context was destroyed|Cannot find context|navigated or closed/i;

// Runs in the page: doctype + DOM in one pass, or null when longer than the limit, so an oversized
// DOM is refused without shipping it over the CDP connection. A string, since `document` is the page's.
const serializeExpression = (maxChars: number) => `(() => {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const html = doctype + (document.documentElement ? document.documentElement.outerHTML : '');
  return html.length > ${maxChars} ? null : html;
})()`;

async function serialize(page: Page, maxContentBytes: number, timers: Timers): Promise<string> {
  const attempt = async (): Promise<string> => {
    for (let tries = 0; ; tries++) {
      try {
        const html: unknown = await page.evaluate(serializeExpression(maxContentBytes));
        if (typeof html !== 'string' || utf8Length(html) > maxContentBytes) throw contentTooLarge(maxContentBytes);
        return html;
      } catch (error) {
        // The page navigated itself between our wait and this read: read the new document.
        if (tries >= 3 || !(error instanceof Error) || !NAVIGATED_AWAY.test(error.message)) throw error;
        await timers.after(250, undefined);
      }
    }
  };
  const stuck = timers.after(SERIALIZE_TIMEOUT_MS, 'stuck' as const);
  const result = await Promise.race([attempt(), stuck]);
  if (result === 'stuck') {
    throw new ApiError('target_timeout', 'The page stopped responding while its content was read (a script may never yield).');
  }
  return result;
}

export function contentTooLarge(maxContentBytes: number): ApiError {
  return new ApiError('content_too_large', `The rendered content is larger than ${maxContentBytes} bytes.`);
}

/** Navigates `page` to `options.url`, waits, and serializes; the page is left open. */
export async function loadPage(
  page: Page,
  options: LoadOptions,
  timer: PhaseTimer,
  forbiddenNavigation: Promise<string> = new Promise(() => undefined),
): Promise<RenderedPage> {
  const doc = watchMainDocument(page, { checkRemoteAddress: options.guardPrivateNetwork && options.proxyName === undefined });
  const network = trackNetwork(page);
  const timers = new Timers();
  try {
    const navigationStart = Date.now();
    await timer.time('navigate', () => navigate(page, options, doc, timers, forbiddenNavigation));
    const waitResult = await timer.time('wait', () => waitForReadiness(options, doc, network, timers, navigationStart));
    const html = await timer.time('serialize', () => serialize(page, options.maxContentBytes, timers));
    const response = doc.response();
    return {
      html,
      finalUrl: page.url(),
      status: response?.status() ?? 200,
      headers: response?.headers() ?? {},
      waitResult,
    };
  } finally {
    timers.clear();
    network.dispose();
    doc.dispose();
  }
}
