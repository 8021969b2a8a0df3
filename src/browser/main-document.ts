// Watches the main frame of a page through one navigation: its final response (after redirects),
// when a real document committed (not Chrome's error page), DOMContentLoaded, load, and the end of
// the document's body. page-load.ts races these against the request's time budgets.
// Downloads never reach puppeteer's 'response' event: Chrome aborts the navigation, then reports the
// raw response headers (Network.responseReceivedExtraInfo) and Page.downloadWillBegin.
import type { HTTPRequest, HTTPResponse, Page } from '@cloudflare/puppeteer';
import { unsupportedContentReason } from '../content-type.js';
import type { TargetGuard } from '../guard/policy.js';
import { isTopFrame, pageSession, requestId } from './cdp-internals.js';

export interface MainDocument {
  /** Resolves when the main frame committed a document whose response we hold. */
  committed: Promise<void>;
  /** Resolves with a reason when the main response is a download or a binary. */
  unsupported: Promise<string>;
  /** Resolves with a reason when the guard refuses the address the main document came from. */
  forbiddenAddress: Promise<string>;
  domContentLoaded: Promise<void>;
  load: Promise<void>;
  /** Resolves when the main document's body has ended: received in full, or failed (a reset, a short body). */
  bodyEnded: Promise<void>;
  /** The latest final (non-redirect) main-document response. */
  response(): HTTPResponse | undefined;
  dispose(): void;
}

function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function isRedirect(status: number, headers: Record<string, string>): boolean {
  return status >= 300 && status < 400 && headers.location !== undefined;
}

function lowercaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

interface ExtraInfoEvent {
  requestId: string;
  statusCode?: number;
  headers: Record<string, string>;
}

/** Watches `page`'s main frame; `guard` judges the address each main document was served from. */
export function watchMainDocument(page: Page, guard: TargetGuard): MainDocument {
  const committed = signal();
  const unsupported = signal<string>();
  const forbiddenAddress = signal<string>();
  const domContentLoaded = signal();
  const load = signal();
  const bodyEnded = signal();
  let latest: HTTPResponse | undefined;
  let mainRequestId: string | undefined;
  // Commit and response can be reported in either order: puppeteer holds a response back until its
  // raw headers arrive, which under load comes after Chrome reported the commit.
  let navigated = false;
  const checkCommitted = () => {
    if (navigated && latest !== undefined) committed.resolve();
  };

  const isMainNavigation = (request: HTTPRequest) => request.isNavigationRequest() && isTopFrame(request.frame());
  const checkContent = (status: number, headers: Record<string, string>) => {
    if (isRedirect(status, headers)) return;
    const reason = unsupportedContentReason(headers);
    if (reason !== undefined) unsupported.resolve(reason);
  };
  const onRequest = (request: HTTPRequest) => {
    if (isMainNavigation(request)) mainRequestId = requestId(request);
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
  };
  const onExtraInfo = (event: ExtraInfoEvent) => {
    if (event.requestId === mainRequestId) checkContent(event.statusCode ?? 200, lowercaseNames(event.headers));
  };
  const onDownload = () => unsupported.resolve('The target is a download.');
  const onFrameNavigated = (frame: ReturnType<Page['mainFrame']>) => {
    // A failed navigation commits chrome-error://chromewebdata/; that is not the target's document.
    if (!isTopFrame(frame) || frame.url().startsWith('chrome-error:')) return;
    navigated = true;
    checkCommitted();
  };
  const onRequestEnded = (request: HTTPRequest) => {
    if (latest !== undefined && request === latest.request()) bodyEnded.resolve();
  };
  const session = pageSession(page);
  // puppeteer's emitters take loosely typed handlers; each entry is [emitter, event, handler].
  type Handler = (event: never) => void;
  type LooseEmitter = { on(event: string, handler: Handler): unknown; off(event: string, handler: Handler): unknown };
  const subscriptions: [object | undefined, string, Handler][] = [
    [page, 'request', onRequest],
    [page, 'response', onResponse],
    [page, 'framenavigated', onFrameNavigated],
    [page, 'requestfinished', onRequestEnded],
    [page, 'requestfailed', onRequestEnded],
    [page, 'domcontentloaded', () => domContentLoaded.resolve()],
    [page, 'load', () => load.resolve()],
    [session, 'Network.responseReceivedExtraInfo', onExtraInfo],
    [session, 'Page.downloadWillBegin', onDownload],
  ];
  for (const [emitter, event, handler] of subscriptions) (emitter as LooseEmitter | undefined)?.on(event, handler);

  return {
    committed: committed.promise,
    unsupported: unsupported.promise,
    forbiddenAddress: forbiddenAddress.promise,
    domContentLoaded: domContentLoaded.promise,
    load: load.promise,
    bodyEnded: bodyEnded.promise,
    response: () => latest,
    dispose() {
      for (const [emitter, event, handler] of subscriptions) (emitter as LooseEmitter | undefined)?.off(event, handler);
    },
  };
}
