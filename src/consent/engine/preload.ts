// Declines cookie-consent dialogs (docs/api.md "Consent dialogs", consent: "reject"): DuckDuckGo's
// autoconsent (@duckduckgo/autoconsent, MPL-2.0, bundled from the package as it ships) runs in every
// frame's main world before the page's own scripts, with its maintained rule set, and answers each
// dialog of a known consent platform as a person who declines would (autoAction "optOut": reject or
// "necessary only", never accept), through the dialog's buttons or its platform's API. Its progress
// goes to the Durable Object through a binding (CONSENT_BINDING, added by page-setup.ts), so the
// page is taken after the answer, not before (consent/watch.ts). Before the page is taken,
// the Durable Object also asks each document for one more detection round on the document as it is
// then (CONSENT_ROUND, consent/round.ts), so a round the engine would run late on a busy
// machine cannot miss a dialog. The engine starts only in a document where a rule may detect a
// dialog (gate.ts), looked for at the moments the engine itself would look; until then the rule set
// is not even read. The site rules stay with the Durable Object, asked for by the documents that
// may run one (consent-rules.ts). A page whose request keeps its dialogs (consent: "keep") never
// runs this script.
import type { CompactCMPRuleset } from '@duckduckgo/autoconsent';
// The preload's part of the package's rule set, split by the build (scripts/consent-rule-split.mjs).
import { gateSource, rulesSource } from 'page-fetch:consent-rules';
import { CONSENT_BINDING, CONSENT_ROUND, CONSENT_STILL_SHOWN, type ConsentRulesRequest } from '../../in-page/protocol';
import { type Binding, DETECT_INTERVAL_MS, DETECT_RETRIES, type Round, runEngine } from './engine';
import { consentMayShow } from './gate';
import { baseRulesFor, commentText, type PreloadBase, type PreloadGate, siteRuleCandidates } from '../rules';

/** The package gives up waiting for the document to change after this long (its waitForMutation). */
const MUTATION_WAIT_MS = 60_000;

/** Defines the round function on the page's main world: not enumerable, so the page's own scans of `window` skip it. */
function offerRounds(round: Round): void {
  const call = (question?: unknown) => round(question === CONSENT_STILL_SHOWN ? question : undefined).catch(() => false);
  Object.defineProperty(globalThis, CONSENT_ROUND, { value: call, configurable: true, enumerable: false, writable: false });
}

/** Resolves at the document's next change after now; rejects after MUTATION_WAIT_MS. */
function nextMutation(): Promise<void> {
  return new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      observer.disconnect();
      resolve();
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error('no change'));
    }, MUTATION_WAIT_MS);
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The engine on the base rules, started once the gate holds: at a look of its own, made when and as
 * often as the engine's findCmp would look (once the document is parsed and the page idle, then
 * every DETECT_INTERVAL_MS, from the third look on after the document changed), or at a round the
 * Durable Object asks for.
 */
function startWhenDialogMayShow(binding: Binding, readBase: () => PreloadBase, gate: PreloadGate, url: string, mainFrame: boolean): void {
  let round: Round | undefined;
  const engine = () => (round ??= runEngine(binding, baseRulesFor(url, mainFrame, readBase().base), document));
  const mayShow = () => consentMayShow(gate.probes, document, window, location.href);
  offerRounds((question) => {
    if (round !== undefined) return round(question);
    // Whether a dialog still shows is asked of an engine that answered one: it never starts one.
    return question === undefined && mayShow() ? engine()() : Promise.resolve(false);
  });
  const look = async () => {
    for (let attempt = 0; attempt <= DETECT_RETRIES && round === undefined; attempt++) {
      const changed = attempt > 0 ? nextMutation() : undefined;
      changed?.catch(() => undefined);
      if (mayShow()) {
        engine();
        return;
      }
      await pause(DETECT_INTERVAL_MS);
      if (changed !== undefined) await changed;
    }
  };
  const firstLook = () => {
    const run = () => void look().catch(() => undefined);
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: DETECT_INTERVAL_MS });
    else setTimeout(run, 0);
  };
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', firstLook, { once: true });
  else firstLook();
}

function start(): void {
  const installed = (globalThis as Record<string, unknown>)[CONSENT_BINDING];
  if (typeof installed !== 'function') return;
  const binding = installed as Binding;
  const gate = JSON.parse(commentText(gateSource.toString())) as PreloadGate;
  const readBase = () => JSON.parse(commentText(rulesSource.toString())) as PreloadBase;
  const url = location.href;
  const mainFrame = window.top === window;
  if (siteRuleCandidates(url, gate.siteIndex).length === 0) {
    startWhenDialogMayShow(binding, readBase, gate, url, mainFrame);
    return;
  }
  // A site rule may run here: the Durable Object keeps them. Detection starts once DOMContentLoaded
  // has passed and the answer is in, whichever comes last; a refused or failed request runs the base.
  // A round asked for before then waits for the engine.
  const baseRules = () => baseRulesFor(url, mainFrame, readBase().base);
  const request: ConsentRulesRequest = { rulesFor: url, mainFrame };
  const engine = Promise.resolve(binding(JSON.stringify(request)))
    .then((answer) => (typeof answer === 'string' ? (JSON.parse(answer) as CompactCMPRuleset) : baseRules()), baseRules)
    .then((rules) => runEngine(binding, rules, document));
  engine.catch(() => undefined);
  offerRounds((question) => engine.then((round) => round(question)));
}

try {
  start();
} catch {
  // A document autoconsent cannot run in loads as it would.
}
