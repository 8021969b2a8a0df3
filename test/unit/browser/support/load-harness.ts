// Runs loadPage (page-load.ts) against a FakePage from t=0 (under useFakeClock, settle.ts), and sums up how it
// ended (error code and status, or wait result; or the error with its message) with the fake time it ended at,
// so each test can assert its one outcome as a single value.
import { watchConsent } from '../../../../src/consent/watch.js';
import type { HeldDocument } from '../../../../src/browser/page/held-document.js';
import { type LoadablePage, loadPage } from '../../../../src/browser/page/page-load.js';

import type { LoadOptions, RenderedPage } from '../../../../src/browser/render-call.js';
import { ApiError } from '../../../../src/errors.js';
import { targetGuard } from '../../../../src/guard/policy.js';
import { PhaseTimer } from '../../../../src/shared/timings.js';
import { FakePage, TARGET_URL } from './fake-page.js';
import { type Settled, track } from './settle.js';

export const OPTIONS: LoadOptions = {
  url: TARGET_URL,
  waitEvent: 'DOMContentLoaded',
  waitMs: 5000,
  scrollSteps: 0,
  consent: 'reject',
  navigationTimeoutMs: 30_000,
  maxContentBytes: 1_000_000,
  maxPdfBytes: 25 * 1024 * 1024,
  maxPdfPages: 300,
  format: 'html',
  metadata: false,
  mainContent: false,
};

/**
 * Starts loadPage at t=0 on a fresh fake page; `forbid` plays the request filter refusing the
 * navigation, `hold` the filter holding the main document unread (a PDF); `consentRound` plays the frames'
 * consent round (answered at once by default).
 */
export function load(
  overrides: Partial<LoadOptions> = {},
  { proxyName, consentRound }: { proxyName?: string; consentRound?: () => Promise<void> } = {},
) {
  const fake = new FakePage();
  let forbid!: (reason: string) => void;
  let hold!: (held: HeldDocument) => void;
  const target: LoadablePage = {
    page: fake.page,
    proxyName,
    guard: targetGuard({ allowPrivateNetwork: false }, proxyName !== undefined),
    forbiddenNavigation: new Promise<string>((resolve) => (forbid = resolve)),
    heldDocument: new Promise((resolve) => (hold = resolve)),
    loadMedia: async () => undefined,
    consent: watchConsent(),
    keepConsentDialogs: async () => undefined,
    consentRound: consentRound ?? (async () => undefined),
    shapeVisit: async () => undefined,
  };
  const result = track(loadPage(target, { ...OPTIONS, ...overrides }, new PhaseTimer()));
  return { fake, forbid, hold, result };
}

/** How loadPage ended and when: the API error's code and status, or the wait result. */
export function outcome(result: { current: Settled<RenderedPage> }) {
  const settled = result.current;
  if (settled.state === 'pending') return 'pending';
  if (settled.state === 'resolved') return { waitResult: settled.value.waitResult, at: settled.at };
  const error = settled.error;
  return error instanceof ApiError ? { error: error.code, status: error.status, at: settled.at } : { thrown: error, at: settled.at };
}

/** The API error loadPage threw, with its message, and when; 'not an API error' otherwise. */
export function failure(result: { current: Settled<RenderedPage> }) {
  const settled = result.current;
  if (settled.state !== 'rejected' || !(settled.error instanceof ApiError)) return 'not an API error';
  const { code, status, message } = settled.error;
  return { error: code, status, message, at: settled.at };
}
