// The in-page script of the waits that look at the page itself (src/browser/page/page-waits.ts): whether
// an element matching a selector is rendered, and the scroll steps of `scroll: true`. It runs in an
// isolated world, like the reads: the page's scripts cannot redefine what it calls.
import type { WaitRequest } from '../protocol';
import { renderedMatch } from '../rendered-match';
import { scrollOneViewport, scrollReading } from '../scroll-step';

/** How often the page is looked at again for a rendered match. */
const POLL_MS = 50;

function selectorValid(selector: string): boolean {
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

function whenRendered(selector: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve) => {
    const look = () => {
      if (renderedMatch(document, selector)) resolve(true);
      else if (performance.now() >= deadline) resolve(false);
      else setTimeout(look, POLL_MS);
    };
    look();
  });
}

export function run(request: WaitRequest): unknown {
  switch (request.action) {
    case 'selectors-valid':
      return request.selectors.map(selectorValid);
    case 'rendered':
      return whenRendered(request.selector, request.timeoutMs);
    case 'scroll':
      return scrollOneViewport();
    case 'reading':
      return scrollReading();
  }
}
