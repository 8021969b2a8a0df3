// The bound of work done in the page once it is taken (a read, a screenshot): done again on the new
// document when the page navigates under it, and given up on at the request's own bound
// (readBoundMs in serialize.ts), so that a page that never yields or never holds still costs one
// request that long and is answered 504 target_timeout, never an error from deep in the protocol.
import { ApiError } from '../../errors.js';
import type { Timers } from '../timers.js';
import { isNavigatedAway } from './isolated-world.js';

/** Pause before trying again on a page that navigated away under the work. */
const RETRY_PAUSE_MS = 20;

/**
 * `work`'s result, `work` tried again while the page navigates away under it.
 * @throws ApiError target_timeout saying `stuckMessage` once `boundMs` has passed.
 */
export async function withinReadBound<T>(
  work: () => Promise<T>,
  bound: { timers: Timers; boundMs: number },
  stuckMessage: string,
): Promise<T> {
  const { timers, boundMs } = bound;
  let stopped = false;
  const attempt = async (): Promise<T> => {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (stopped || !isNavigatedAway(error)) throw error;
        await timers.after(RETRY_PAUSE_MS, undefined);
      }
    }
  };
  const stuck = timers.after(boundMs, 'stuck' as const).then((value) => {
    stopped = true;
    return value;
  });
  const result = await Promise.race([attempt(), stuck]);
  if (result === 'stuck') throw new ApiError('target_timeout', stuckMessage);
  return result;
}
