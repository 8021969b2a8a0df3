// Before a page is taken, every document that runs the consent engine looks at itself once more
// (docs/consent.md "Waiting"): the engine's own rounds run every 500 ms from the page's first idle
// moment, so on a busy machine the wait event can fire before any round saw a dialog that is there.
// Each frame is asked, in its main world where the engine runs, for one detection round
// (CONSENT_ROUND, defined by consent/engine/preload.ts); the call resolves once a dialog it found
// has its answer. A frame without the engine (consent: "keep", a document the script could not run
// in) answers at once; a frame that is gone is skipped; the caller bounds the whole by its budget.
import type { Frame, Page } from '@cloudflare/puppeteer';
import { CONSENT_ROUND } from '../in-page/protocol.js';

/** Calls the round when the document has one; `undefined` otherwise. */
const ROUND_CALL = `(() => { const round = globalThis.${CONSENT_ROUND}; return typeof round === 'function' ? round() : undefined; })()`;

function roundIn(frame: Frame): Promise<unknown> {
  return frame.evaluate(ROUND_CALL).catch(() => undefined);
}

/** One consent detection round in every frame of the page; resolves when each has answered. */
export async function consentRound(page: Page): Promise<void> {
  await Promise.all(page.frames().map(roundIn));
}
