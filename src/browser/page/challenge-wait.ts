// Waiting through a bot challenge (docs/api.md "Blocked pages"): a JavaScript challenge that passes
// sets its cookie and sends the page on, by a reload, a redirect or a form it posts, to the page it
// stands in front of. A page read as a challenge is not taken yet: the next document the main frame
// commits is waited for as the first one was, within the same budget, and read and judged again,
// until it is no challenge or the budget runs out; then the page is taken as it stands, a challenge
// still, with X-Wait-Result: timeout. A CAPTCHA or a block page does not go away by itself: it is
// taken at once.
import type { Blocked } from '../../blocked/verdict.js';
import type { PhaseTimer } from '../../shared/timings.js';
import type { WaitResult } from '../../shared/wait-events.js';
import type { Timers } from '../timers.js';
import type { MainDocument } from './main-document.js';

/** A read of the page and the verdict on it. */
export interface Taken {
  blocked?: Blocked;
}

export interface ChallengeSteps<T extends Taken> {
  /** Starts watching the main frame for its next document (main-document.ts). */
  watchNext(): MainDocument;
  /** Waits for the new document as the first one was waited for (the event, consent, scroll, selector). */
  settle(doc: MainDocument): Promise<WaitResult>;
  /** Reads the page as it stands and judges it. */
  take(): Promise<T>;
}

/**
 * The page taken once it is no challenge, or at the budget's end; `waitResult` is the last wait's.
 * The waits for the next document are timed as the `wait` phase, the reads as `serialize` (by take).
 */
export async function waitThroughChallenge<T extends Taken>(
  first: { taken: T; waitResult: WaitResult },
  steps: ChallengeSteps<T>,
  budget: { deadline: number; timers: Timers; timer: PhaseTimer },
): Promise<{ taken: T; waitResult: WaitResult }> {
  let { taken, waitResult } = first;
  while (taken.blocked?.kind === 'challenge') {
    const next = steps.watchNext();
    try {
      const settled = await budget.timer.time('wait', async () => {
        if ((await budget.timers.within(budget.deadline, next.committed)) === 'timeout') return 'timeout';
        return steps.settle(next);
      });
      taken = await steps.take();
      if (settled === 'timeout') return { taken, waitResult: 'timeout' };
      waitResult = settled;
    } finally {
      next.dispose();
    }
  }
  return { taken, waitResult };
}
