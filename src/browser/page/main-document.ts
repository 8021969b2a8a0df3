// Watches the main frame of a page through one navigation: its final response (after redirects),
// when a real document committed (not Chrome's error page), DOMContentLoaded, load, the end of the
// document's body (and the net error that cut it short), its decoded size as it streams in, and a
// later navigation of the page's own that failed onto Chrome's error page. page-load.ts races these
// against the request's time budgets.
// Downloads never reach puppeteer's 'response' event: Chrome aborts the navigation, then reports the
// raw response headers (Network.responseReceivedExtraInfo) and Page.downloadWillBegin.
import type { HTTPRequest, HTTPResponse, Page } from '@cloudflare/puppeteer';
import { mayBePdf, unsupportedContentReason } from '../../shared/content-type.js';
import type { TargetGuard } from '../../guard/policy.js';
import { isTopFrame, pageSession, requestId } from '../cdp-internals.js';

export interface MainDocument {
  /** Resolves when the main frame committed a document whose response we hold. */
  committed: Promise<void>;
  /** Resolves with a reason when the main response is a download or a binary that may not be a PDF. */
  unsupported: Promise<string>;
  /** Resolves with a reason when the guard refuses the address the main document came from. */
  forbiddenAddress: Promise<string>;
  /**
   * Resolves when the target answered an error status with no body: Chrome shows its own error page
   * in place of an empty 4xx/5xx response, so no document of the target ever commits.
   */
  emptyErrorResponse: Promise<void>;
  domContentLoaded: Promise<void>;
  load: Promise<void>;
  /** Resolves when the main document's body has ended: received in full, or failed (a reset, a short body). */
  bodyEnded: Promise<void>;
  /** The net error (`net::ERR_*`) that ended the main document's body early, if one did. */
  bodyFailure(): string | undefined;
  /** Resolves when the main document's decoded body passes `maxDecodedBytes`. */
  oversized: Promise<void>;
  /** Resolves when, after a real document, the main frame commits Chrome's error page. */
  errorPage: Promise<void>;
  /** The main frame's last failed navigation: the URL it was sent to and the net error. */
  failedNavigation(): { url: string; errorText: string } | undefined;
  /** The latest final (non-redirect) main-document response. */
  response(): HTTPResponse | undefined;
  /**
   * The address space (CDP IPAddressSpace) the browser reported for the main request's final response,
   * once its raw headers arrived: all a document read before any response event is known by.
   */
  addressSpace: Promise<string | undefined>;
  dispose(): void;
}

function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A redirect hop (its target comes next), not a final response. */
export function isRedirect(status: number, headers: Record<string, string>): boolean {
  return status >= 300 && status < 400 && headers.location !== undefined;
}

function lowercaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

interface ExtraInfoEvent {
  requestId: string;
  statusCode?: number;
  headers: Record<string, string>;
  resourceIPAddressSpace?: string;
}

interface DataReceivedEvent {
  requestId: string;
  /** Decoded bytes (after Content-Encoding); encodedDataLength is what crossed the wire. */
  dataLength: number;
}

/**
 * Watches `page`'s main frame; `guard` judges the address each main document was served from, and a
 * document whose decoded body passes `maxDecodedBytes` is reported as oversized while it streams in.
 */
export function watchMainDocument(page: Page, guard: TargetGuard, maxDecodedBytes = Number.POSITIVE_INFINITY): MainDocument {
  const committed = signal();
  const unsupported = signal<string>();
  const forbiddenAddress = signal<string>();
  const emptyErrorResponse = signal();
  const domContentLoaded = signal();
  const load = signal();
  const bodyEnded = signal();
  const oversized = signal();
  const errorPage = signal();
  const addressSpace = signal<string | undefined>();
  let latest: HTTPResponse | undefined;
  let mainRequestId: string | undefined;
  let decodedBytes = 0;
  let bodyFailure: string | undefined;
  let failedNavigation: { url: string; errorText: string } | undefined;
  // Commit and response can be reported in either order: puppeteer holds a response back until its
  // raw headers arrive, which under load comes after Chrome reported the commit.
  let navigated = false;
  const checkCommitted = () => {
    if (navigated && latest !== undefined) committed.resolve();
  };
  // (Either order again: the failure can be reported before the response puppeteer holds back.)
  // (net::ERR_HTTP_RESPONSE_CODE_FAILURE: Chrome's name for an error status whose body is empty.)
  const checkEmptyErrorResponse = () => {
    const emptyErrorStatus = failedNavigation?.errorText === 'net::ERR_HTTP_RESPONSE_CODE_FAILURE';
    if (!navigated && emptyErrorStatus && latest !== undefined) emptyErrorResponse.resolve();
  };

  const isMainNavigation = (request: HTTPRequest) => request.isNavigationRequest() && isTopFrame(request.frame());
  const checkContent = (status: number, headers: Record<string, string>) => {
    // One that may be a PDF is held by the request filter, which reads it (held-document.ts).
    if (isRedirect(status, headers) || mayBePdf(headers)) return;
    const reason = unsupportedContentReason(headers);
    if (reason !== undefined) unsupported.resolve(reason);
  };
  const onRequest = (request: HTTPRequest) => {
    if (!isMainNavigation(request)) return;
    mainRequestId = requestId(request);
    decodedBytes = 0;
  };
  const onDataReceived = (event: DataReceivedEvent) => {
    if (event.requestId !== mainRequestId) return;
    decodedBytes += event.dataLength;
    if (decodedBytes > maxDecodedBytes) oversized.resolve();
  };
  const onResponse = (response: HTTPResponse) => {
    if (!isMainNavigation(response.request()) || isRedirect(response.status(), response.headers())) return;
    latest = response;
    checkContent(response.status(), response.headers());
    // A public-looking name can resolve to a private address (DNS rebinding); Chrome reports where it connected.
    const reason = guard.documentAddressRefusal(response.remoteAddress().ip ?? '');
    if (reason !== undefined) forbiddenAddress.resolve(reason);
    // Last, so a refusal above wins the race against the commit.
    checkCommitted();
    checkEmptyErrorResponse();
  };
  const onExtraInfo = (event: ExtraInfoEvent) => {
    if (event.requestId !== mainRequestId) return;
    const status = event.statusCode ?? 200;
    const headers = lowercaseNames(event.headers);
    checkContent(status, headers);
    if (!isRedirect(status, headers)) addressSpace.resolve(event.resourceIPAddressSpace);
  };
  const onDownload = () => unsupported.resolve('The target is a download.');
  const onFrameNavigated = (frame: ReturnType<Page['mainFrame']>) => {
    if (!isTopFrame(frame)) return;
    // A failed navigation commits chrome-error://chromewebdata/; that is not the target's document.
    if (frame.url().startsWith('chrome-error:')) {
      if (navigated) errorPage.resolve();
      return;
    }
    navigated = true;
    checkCommitted();
  };
  const onRequestFinished = (request: HTTPRequest) => {
    if (latest !== undefined && request === latest.request()) bodyEnded.resolve();
  };
  const onRequestFailed = (request: HTTPRequest) => {
    const errorText = request.failure()?.errorText ?? 'net::ERR_FAILED';
    if (isMainNavigation(request)) {
      failedNavigation = { url: request.url(), errorText };
      checkEmptyErrorResponse();
    }
    if (latest === undefined || request !== latest.request()) return;
    bodyFailure = errorText;
    bodyEnded.resolve();
  };
  const session = pageSession(page);
  // puppeteer's emitters take loosely typed handlers; each entry is [emitter, event, handler].
  type Handler = (event: never) => void;
  type LooseEmitter = { on(event: string, handler: Handler): unknown; off(event: string, handler: Handler): unknown };
  const subscriptions: [object | undefined, string, Handler][] = [
    [page, 'request', onRequest],
    [page, 'response', onResponse],
    [page, 'framenavigated', onFrameNavigated],
    [page, 'requestfinished', onRequestFinished],
    [page, 'requestfailed', onRequestFailed],
    [page, 'domcontentloaded', () => domContentLoaded.resolve()],
    [page, 'load', () => load.resolve()],
    [session, 'Network.responseReceivedExtraInfo', onExtraInfo],
    [session, 'Page.downloadWillBegin', onDownload],
    [session, 'Network.dataReceived', onDataReceived],
  ];
  for (const [emitter, event, handler] of subscriptions) (emitter as LooseEmitter | undefined)?.on(event, handler);

  return {
    committed: committed.promise,
    unsupported: unsupported.promise,
    forbiddenAddress: forbiddenAddress.promise,
    emptyErrorResponse: emptyErrorResponse.promise,
    domContentLoaded: domContentLoaded.promise,
    load: load.promise,
    bodyEnded: bodyEnded.promise,
    bodyFailure: () => bodyFailure,
    oversized: oversized.promise,
    errorPage: errorPage.promise,
    failedNavigation: () => failedNavigation,
    response: () => latest,
    addressSpace: addressSpace.promise,
    dispose() {
      for (const [emitter, event, handler] of subscriptions) (emitter as LooseEmitter | undefined)?.off(event, handler);
    },
  };
}
