// The waits that look at the page itself (docs/api.md "Waiting"), each bounded by the request's budget
// (a deadline in ms since the epoch) and run through the in-page wait script in an isolated world:
// - wait_for_selector: Chromium's own check of the selector on the fresh page, before navigation,
//   then, once the wait event fired, until an element matching it is rendered;
// - scroll: one viewport at a time until the height stops growing at the bottom, or the step limit.
// A document replaced under a call (the page navigated itself) is looked at again in its successor.
import type { Page } from '@cloudflare/puppeteer';
import WAIT_SCRIPT from '../../../build/page-script-wait.js?raw';
import type { ScrollReading, WaitRequest } from '../../in-page/protocol.js';
import { callInWorld, inPageFunction, isNavigatedAway, openWorld, type World } from '../read/isolated-world.js';
import type { NetworkTracker } from './network-tracker.js';
import type { Timers } from '../timers.js';

const WAIT_FUNCTION = inPageFunction(WAIT_SCRIPT);

/** After each scroll step, the network must be quiet this long (the loads the step started are over)… */
export const SCROLL_QUIET_MS = 200;
/** …or the step has taken this long, whichever comes first. */
export const SCROLL_STEP_MAX_MS = 1000;
/** Pause before looking again at a page that navigated away under a call. */
const RETRY_PAUSE_MS = 20;

/** One call of the wait script, in `world` or else a fresh world of the page's document. */
async function callWait(page: Page, request: WaitRequest, world?: World): Promise<unknown> {
  return callInWorld(world ?? (await openWorld(page.mainFrame())), WAIT_FUNCTION, request);
}

/** Which of `selectors` Chromium's querySelector accepts, in order (asked of the page as it is, before it navigates). */
export async function selectorsAccepted(page: Page, selectors: string[]): Promise<boolean[]> {
  if (selectors.length === 0) return [];
  return (await callWait(page, { action: 'selectors-valid', selectors })) as boolean[];
}

/** Resolves true once an element matching `selector` is rendered, false when `deadline` passes first. */
export async function waitForRendered(page: Page, selector: string, deadline: number, timers: Timers): Promise<boolean> {
  for (;;) {
    const timeoutMs = deadline - Date.now();
    if (timeoutMs <= 0) return false;
    try {
      return (await callWait(page, { action: 'rendered', selector, timeoutMs })) === true;
    } catch (error) {
      if (!isNavigatedAway(error)) throw error;
      await timers.after(RETRY_PAUSE_MS, undefined);
    }
  }
}

/**
 * Scrolls through the page: a step scrolls one viewport and waits for the loads it started (a quiet
 * network for SCROLL_QUIET_MS, at most SCROLL_STEP_MAX_MS). Stops when two readings in a row are at
 * the bottom with the same height, after `maxSteps` steps, or at `deadline` ('timeout'). Every step
 * calls into one world of the document; a page that navigates away ends it: its new document is
 * taken as it loads.
 */
export async function scrollThrough(
  page: Page,
  network: NetworkTracker,
  maxSteps: number,
  deadline: number,
  timers: Timers,
): Promise<'done' | 'timeout'> {
  try {
    const world = await openWorld(page.mainFrame());
    let previous: ScrollReading | undefined;
    for (let steps = 0; ; steps++) {
      const reading = await timers.within(deadline, callWait(page, { action: 'reading' }, world) as Promise<ScrollReading>);
      if (reading === 'timeout') return 'timeout';
      if (previous?.atBottom === true && reading.atBottom && reading.height === previous.height) return 'done';
      if (steps === maxSteps) return 'done';
      const step = callWait(page, { action: 'scroll' }, world).then(() =>
        Promise.race([network.idle(0, SCROLL_QUIET_MS), timers.after(SCROLL_STEP_MAX_MS, undefined)]),
      );
      if ((await timers.within(deadline, step)) === 'timeout') return 'timeout';
      previous = reading;
    }
  } catch (error) {
    if (isNavigatedAway(error)) return 'done';
    throw error;
  }
}
