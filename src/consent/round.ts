// Before a page is taken, every document that runs the consent engine looks at itself once more
// (docs/consent.md "Waiting"): the engine's own rounds run every 500 ms from the page's first idle
// moment, so on a busy machine the wait event can fire before any round saw a dialog that is there.
// Each frame is asked, in its main world where the engine runs, for one detection round
// (CONSENT_ROUND, defined by consent/engine/preload.ts); the call resolves once a dialog it found
// has its answer. A frame without the engine (consent: "keep", a document the script could not run
// in) answers at once; a frame that is gone is skipped; the caller bounds the whole by its budget.
// Where a dialog was declined, the page is taken once none shows any more: a platform may close its
// dialog a little after the answer (a dialog frame telling its page, which then removes it).
import type { Frame, Page } from '@cloudflare/puppeteer';
import { CONSENT_ROUND, CONSENT_STILL_SHOWN } from '../in-page/protocol.js';

/** How often the frames are asked whether a dialog they declined still shows. */
export const SHOWN_POLL_MS = 100;
/**
 * How long at most a declined dialog is waited for to close: long enough for a platform that closes
 * it after a request of its own on a slow machine, short enough that one which never closes it
 * costs the page little.
 */
export const SHOWN_WAIT_MS = 3000;

/** Calls the document's round (or asks it `question`) when the document has one; `undefined` otherwise. */
const roundCall = (question?: string) =>
  `(() => { const round = globalThis.${CONSENT_ROUND}; return typeof round === 'function' ? round(${question === undefined ? '' : JSON.stringify(question)}) : undefined; })()`;
const ROUND_CALL = roundCall();
const STILL_SHOWN_CALL = roundCall(CONSENT_STILL_SHOWN);

/** The frame's answer; `undefined` for a frame gone meanwhile. */
function ask(frame: Frame, call: string): Promise<unknown> {
  return frame.evaluate(call).catch(() => undefined);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One consent detection round in every frame of the page; resolves when each has answered and, where
 * a dialog was answered, once none still shows (at most SHOWN_WAIT_MS later).
 */
export async function consentRound(page: Page): Promise<void> {
  const answers = await Promise.all(page.frames().map((frame) => ask(frame, ROUND_CALL)));
  if (!answers.includes(true)) return;
  const until = Date.now() + SHOWN_WAIT_MS;
  for (;;) {
    // A frame removed with its dialog is not among the frames, or answers nothing.
    const shown = await Promise.all(page.frames().map((frame) => ask(frame, STILL_SHOWN_CALL)));
    if (!shown.includes(true) || Date.now() >= until) return;
    await pause(SHOWN_POLL_MS);
  }
}
