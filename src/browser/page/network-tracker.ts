// In-flight request tracking for the networkIdle / networkAlmostIdle waits. docs/api.md "Waiting" defines them as
// at most 0 (or 2) open requests for 500 ms; Chrome's own lifecycle events mean the same but were
// measured to fire about a second late, so we count requests from puppeteer's network events.
// Like Chrome, idleness is judged per document and only once it has reached DOMContentLoaded: when
// the main frame commits a new document (a page navigating itself), the old document's requests are
// forgotten (Chrome does not always report their end) and the count starts over; so are the requests
// of a frame taken out of the page. Streams are never counted (open-requests.ts). A scroll step
// waits for a shorter quiet spell than the wait event does.
import type { Frame, HTTPRequest, HTTPResponse, Page } from '@cloudflare/puppeteer';
import { isTopFrame, pageSession } from '../cdp-internals.js';
import { countsWhileOpen, isEventStream } from './open-requests.js';

export const NETWORK_QUIET_MS = 500;

export interface NetworkTracker {
  /** Resolves once at most `maxInFlight` requests stayed open for `quietMs` (NETWORK_QUIET_MS) after DOMContentLoaded. */
  idle(maxInFlight: number, quietMs?: number): Promise<void>;
  /** How many counted requests have started so far (a scroll that started none changed nothing to wait for). */
  started(): number;
  dispose(): void;
}

interface FrameNavigatedEvent {
  frame: { parentId?: string };
}

export function trackNetwork(page: Page): NetworkTracker {
  const inFlight = new Set<HTTPRequest>();
  const waiters: { maxInFlight: number; quietMs: number; timer?: ReturnType<typeof setTimeout>; resolve: () => void }[] = [];
  let parsed = false;
  let started = 0;

  const evaluate = () => {
    for (const waiter of waiters) {
      const quiet = parsed && inFlight.size <= waiter.maxInFlight;
      if (quiet && waiter.timer === undefined) {
        waiter.timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }, waiter.quietMs);
      } else if (!quiet && waiter.timer !== undefined) {
        clearTimeout(waiter.timer);
        waiter.timer = undefined;
      }
    }
  };
  const onStart = (request: HTTPRequest) => {
    if (!countsWhileOpen(request.resourceType())) return;
    started++;
    inFlight.add(request);
    evaluate();
  };
  // An event stream is known by its answer: from its headers on it is a stream, not a load.
  const onResponse = (response: HTTPResponse) => {
    if (!isEventStream(response.headers()['content-type'])) return;
    inFlight.delete(response.request());
    evaluate();
  };
  const onEnd = (request: HTTPRequest) => {
    inFlight.delete(request);
    evaluate();
  };
  const onDomContentLoaded = () => {
    parsed = true;
    evaluate();
  };
  // Cross-document commits only (CDP's Page.frameNavigated); same-document navigations keep counting.
  const onFrameNavigated = (event: FrameNavigatedEvent) => {
    if (event.frame.parentId !== undefined) return;
    for (const request of inFlight) {
      if (!(request.isNavigationRequest() && isTopFrame(request.frame()))) inFlight.delete(request);
    }
    parsed = false;
    evaluate();
  };
  // A frame taken out of the page (its iframe removed) takes its requests with it, and Chrome does not
  // always report their end: a consent platform's frame removed right after posting the choice.
  const onFrameDetached = (frame: Frame) => {
    for (const request of inFlight) if (request.frame() === frame) inFlight.delete(request);
    evaluate();
  };
  const session = pageSession(page);
  // Each page event with its handler, listened to here and let go in dispose().
  const pageListeners = [
    ['framedetached', onFrameDetached],
    ['request', onStart],
    ['response', onResponse],
    ['requestfinished', onEnd],
    ['requestfailed', onEnd],
    ['domcontentloaded', onDomContentLoaded],
  ] as const;
  for (const [event, handler] of pageListeners) page.on(event, handler as (value: unknown) => void);
  session?.on('Page.frameNavigated', onFrameNavigated);

  return {
    idle(maxInFlight, quietMs = NETWORK_QUIET_MS) {
      return new Promise<void>((resolve) => {
        waiters.push({ maxInFlight, quietMs, resolve });
        evaluate();
      });
    },
    started: () => started,
    dispose() {
      for (const [event, handler] of pageListeners) page.off(event, handler as (value: unknown) => void);
      session?.off('Page.frameNavigated', onFrameNavigated);
      for (const waiter of waiters) clearTimeout(waiter.timer);
      waiters.length = 0;
    },
  };
}
