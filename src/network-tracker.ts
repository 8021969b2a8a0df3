// In-flight request tracking for the networkIdle / networkAlmostIdle waits. DESIGN.md defines them as
// at most 0 (or 2) open requests for 500 ms; Chrome's own lifecycle events mean the same but were
// measured to fire about a second late, so we count requests from puppeteer's network events.
// Like Chrome, idleness is only judged once the document has reached DOMContentLoaded.
import type { HTTPRequest, Page } from '@cloudflare/puppeteer';

export const NETWORK_QUIET_MS = 500;

export interface NetworkTracker {
  /** Resolves once at most `maxInFlight` requests stayed open for NETWORK_QUIET_MS after DOMContentLoaded. */
  idle(maxInFlight: number): Promise<void>;
  /** Marks DOMContentLoaded of the main document. */
  documentParsed(): void;
  dispose(): void;
}

export function trackNetwork(page: Page): NetworkTracker {
  const inFlight = new Set<HTTPRequest>();
  const waiters: { maxInFlight: number; timer?: ReturnType<typeof setTimeout>; resolve: () => void }[] = [];
  let parsed = false;

  const evaluate = () => {
    for (const waiter of waiters) {
      const quiet = parsed && inFlight.size <= waiter.maxInFlight;
      if (quiet && waiter.timer === undefined) {
        waiter.timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }, NETWORK_QUIET_MS);
      } else if (!quiet && waiter.timer !== undefined) {
        clearTimeout(waiter.timer);
        waiter.timer = undefined;
      }
    }
  };
  const onStart = (request: HTTPRequest) => {
    inFlight.add(request);
    evaluate();
  };
  const onEnd = (request: HTTPRequest) => {
    inFlight.delete(request);
    evaluate();
  };
  page.on('request', onStart);
  page.on('requestfinished', onEnd);
  page.on('requestfailed', onEnd);

  return {
    idle(maxInFlight) {
      return new Promise<void>((resolve) => {
        waiters.push({ maxInFlight, resolve });
        evaluate();
      });
    },
    documentParsed() {
      parsed = true;
      evaluate();
    },
    dispose() {
      page.off('request', onStart);
      page.off('requestfinished', onEnd);
      page.off('requestfailed', onEnd);
      for (const waiter of waiters) clearTimeout(waiter.timer);
      waiters.length = 0;
    },
  };
}
