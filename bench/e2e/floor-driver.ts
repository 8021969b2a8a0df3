// The floor of a request: what a bare Chromium driven over raw CDP (cdp-pipe.ts) needs to answer it
// with the service's isolation and wait — a fresh browser context, a page whose window's browser UI
// is closed (as browser-ui.ts does), navigation, network idleness by the service's definition
// (network-tracker.ts: no counted request open for 500 ms once the document reached DOMContentLoaded,
// the count started over when the main frame commits a new document; open-requests.ts says which
// requests count), one read of the DOM, and the context disposed. Nothing else: no request filter,
// no preloads, no Worker.
import { NETWORK_QUIET_MS } from '../../src/browser/page/network-tracker.js';
import { countsWhileOpen, isEventStream } from '../../src/browser/page/open-requests.js';
import type { PipeBrowser } from './cdp-pipe.js';

const REQUEST_TIMEOUT_MS = 30_000;

/** Resolves once the page in `sessionId` has been network-idle for NETWORK_QUIET_MS after DOMContentLoaded. */
function networkIdle(browser: PipeBrowser, sessionId: string): { idle: Promise<void>; dispose(): void } {
  const inFlight = new Set<string>();
  let parsed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resolve!: () => void;
  const idle = new Promise<void>((done) => (resolve = done));
  const evaluate = () => {
    const quiet = parsed && inFlight.size === 0;
    if (quiet && timer === undefined) timer = setTimeout(resolve, NETWORK_QUIET_MS);
    else if (!quiet && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  const mine = (listener: (params: Record<string, unknown>) => void) => (params: Record<string, unknown>, from: string | undefined) => {
    if (from === sessionId) listener(params);
  };
  const listeners: [string, ReturnType<typeof mine>][] = [
    [
      'Network.requestWillBeSent',
      mine((params) => {
        if (!countsWhileOpen(String(params.type ?? 'Other'))) return;
        inFlight.add(String(params.requestId));
        evaluate();
      }),
    ],
    [
      'Network.responseReceived',
      mine((params) => {
        const headers = (params.response as { headers: Record<string, string> }).headers;
        const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        if (!isEventStream(type)) return;
        inFlight.delete(String(params.requestId));
        evaluate();
      }),
    ],
    ...(['Network.loadingFinished', 'Network.loadingFailed'] as const).map(
      (method) =>
        [
          method,
          mine((params) => {
            inFlight.delete(String(params.requestId));
            evaluate();
          }),
        ] as [string, ReturnType<typeof mine>],
    ),
    [
      'Page.domContentEventFired',
      mine(() => {
        parsed = true;
        evaluate();
      }),
    ],
    [
      'Page.frameNavigated',
      mine((params) => {
        if ((params.frame as { parentId?: string }).parentId !== undefined) return;
        parsed = false;
        evaluate();
      }),
    ],
  ];
  for (const [method, listener] of listeners) browser.on(method, listener);
  return {
    idle,
    dispose() {
      clearTimeout(timer);
      for (const [method, listener] of listeners) browser.off(method, listener);
    },
  };
}

async function closeBrowserUi(browser: PipeBrowser, browserContextId: string): Promise<void> {
  const { targetInfos } = await browser.send<{ targetInfos: { targetId: string; type: string; browserContextId?: string }[] }>(
    'Target.getTargets',
    { filter: [{ type: 'browser_ui' }] },
  );
  const own = targetInfos.filter((info) => info.type === 'browser_ui' && info.browserContextId === browserContextId);
  await Promise.all(own.map(({ targetId }) => browser.send('Target.closeTarget', { targetId }).catch(() => undefined)));
}

/** A context and its page, opened before the request that navigates it (as the service's pool keeps spares). */
export interface FloorPage {
  browserContextId: string;
  sessionId: string;
}

/** Opens a fresh context with a page at about:blank, its window's browser UI closed, attached. */
export async function openFloorPage(browser: PipeBrowser): Promise<FloorPage> {
  const { browserContextId } = await browser.send<{ browserContextId: string }>('Target.createBrowserContext');
  try {
    const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const [, { sessionId }] = await Promise.all([
      closeBrowserUi(browser, browserContextId),
      browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }),
    ]);
    return { browserContextId, sessionId };
  } catch (error) {
    await browser.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
    throw error;
  }
}

/**
 * One request's whole cycle on the floor; resolves with the length of the HTML read. `setUp` runs
 * on the page's session before navigation (a benchmark adding one of the service's steps at a time).
 * The page is `opened` ahead, or opened now.
 */
export async function floorRequest(
  browser: PipeBrowser,
  url: string,
  setUp?: (sessionId: string) => Promise<unknown>,
  opened?: FloorPage,
): Promise<number> {
  const { browserContextId, sessionId } = opened ?? (await openFloorPage(browser));
  try {
    const waiter = networkIdle(browser, sessionId);
    let timeout: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.all([browser.send('Page.enable', {}, sessionId), browser.send('Network.enable', {}, sessionId), setUp?.(sessionId)]);
      await browser.send('Page.navigate', { url }, sessionId);
      await Promise.race([
        waiter.idle,
        new Promise((_, reject) => (timeout = setTimeout(() => reject(new Error('floor: no network idle')), REQUEST_TIMEOUT_MS))),
      ]);
    } finally {
      clearTimeout(timeout);
      waiter.dispose();
    }
    const { result } = await browser.send<{ result: { value: string } }>(
      'Runtime.evaluate',
      { expression: 'document.documentElement.outerHTML', returnByValue: true },
      sessionId,
    );
    return result.value.length;
  } finally {
    await browser.send('Target.disposeBrowserContext', { browserContextId });
  }
}
