// Watches the main frame of a page through one navigation: its final response (after redirects),
// when a real document committed (not Chrome's error page), DOMContentLoaded, load, and the end of
// the document's body. page-load.ts races these against the request's time budgets.
import type { HTTPRequest, HTTPResponse, Page } from '@cloudflare/puppeteer';
import { unsupportedContentReason } from './content-type.js';

export interface MainDocument {
  /** Resolves when the main frame committed a document whose response we hold. */
  committed: Promise<void>;
  /** Resolves with a reason when the main response is a download or a binary. */
  unsupported: Promise<string>;
  domContentLoaded: Promise<void>;
  load: Promise<void>;
  /** Resolves when the main document's body has been received in full. */
  bodyLoaded: Promise<void>;
  /** The latest final (non-redirect) main-document response. */
  response(): HTTPResponse | undefined;
  dispose(): void;
}

function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function isRedirect(response: HTTPResponse): boolean {
  return response.status() >= 300 && response.status() < 400 && response.headers()['location'] !== undefined;
}

export function watchMainDocument(page: Page): MainDocument {
  const committed = signal();
  const unsupported = signal<string>();
  const domContentLoaded = signal();
  const load = signal();
  const bodyLoaded = signal();
  let latest: HTTPResponse | undefined;

  const isMainNavigation = (request: HTTPRequest) => request.isNavigationRequest() && request.frame() === page.mainFrame();
  const onResponse = (response: HTTPResponse) => {
    if (!isMainNavigation(response.request()) || isRedirect(response)) return;
    latest = response;
    const reason = unsupportedContentReason(response.headers());
    if (reason !== undefined) unsupported.resolve(reason);
  };
  const onFrameNavigated = (frame: ReturnType<Page['mainFrame']>) => {
    // A failed navigation commits chrome-error://chromewebdata/; that is not the target's document.
    if (frame === page.mainFrame() && latest !== undefined && !frame.url().startsWith('chrome-error:')) committed.resolve();
  };
  const onRequestFinished = (request: HTTPRequest) => {
    if (latest !== undefined && request === latest.request()) bodyLoaded.resolve();
  };
  const onDomContentLoaded = () => domContentLoaded.resolve();
  const onLoad = () => load.resolve();

  page.on('response', onResponse);
  page.on('framenavigated', onFrameNavigated);
  page.on('requestfinished', onRequestFinished);
  page.on('domcontentloaded', onDomContentLoaded);
  page.on('load', onLoad);

  return {
    committed: committed.promise,
    unsupported: unsupported.promise,
    domContentLoaded: domContentLoaded.promise,
    load: load.promise,
    bodyLoaded: bodyLoaded.promise,
    response: () => latest,
    dispose() {
      page.off('response', onResponse);
      page.off('framenavigated', onFrameNavigated);
      page.off('requestfinished', onRequestFinished);
      page.off('domcontentloaded', onDomContentLoaded);
      page.off('load', onLoad);
    },
  };
}
