// What the consent preload (consent/engine/preload.ts) reports of a page's cookie-consent dialogs,
// frame by frame, so the page is taken after a dialog's answer, not before (docs/api.md "Consent
// dialogs"): a frame whose dialog was found is open until its answer succeeded or failed. A page
// without a dialog reports nothing and is never waited for. Pure: page-setup.ts feeds it what the
// page's binding receives.
import type { ConsentReport } from '../in-page/protocol.js';

/** Reports taken from one page at most: a page calling the binding in a loop costs nothing more. */
const MAX_REPORTS = 200;

export interface ConsentWatch {
  /** A report from the page (its binding's argument, JSON); anything malformed is ignored. */
  receive(payload: unknown): void;
  /** Whether a dialog was found in some frame and its answer is not over yet. */
  pending(): boolean;
  /** Resolves once no frame has a dialog being answered (at once when none has). */
  settled(): Promise<void>;
  /** The consent platforms whose dialogs were declined, in the order they were. */
  declined(): string[];
}

function parse(payload: unknown): ConsentReport | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const report = JSON.parse(payload) as Partial<ConsentReport>;
    const events = ['found', 'declined', 'failed', 'done'];
    if (typeof report.frame !== 'string' || typeof report.cmp !== 'string' || !events.includes(report.event as string)) return undefined;
    return report as ConsentReport;
  } catch {
    return undefined;
  }
}

export function watchConsent(): ConsentWatch {
  const open = new Set<string>();
  const declined: string[] = [];
  let waiters: (() => void)[] = [];
  let reports = 0;
  const wake = () => {
    if (open.size > 0) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };
  return {
    receive(payload) {
      if (++reports > MAX_REPORTS) return;
      const report = parse(payload);
      if (report === undefined) return;
      if (report.event === 'found') open.add(report.frame);
      else {
        if (report.event === 'declined') declined.push(report.cmp);
        open.delete(report.frame);
        wake();
      }
    },
    pending: () => open.size > 0,
    settled: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    declined: () => [...declined],
  };
}
