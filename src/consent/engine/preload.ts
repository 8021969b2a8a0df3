// Declines cookie-consent dialogs (docs/api.md "Consent dialogs", consent: "reject"): DuckDuckGo's
// autoconsent (@duckduckgo/autoconsent, MPL-2.0, bundled from the package as it ships) runs in every
// frame's main world before the page's own scripts, with its maintained rule set, and answers each
// dialog of a known consent platform as a person who declines would (autoAction "optOut": reject or
// "necessary only", never accept), through the dialog's buttons or its platform's API. Its progress
// goes to the Durable Object through a binding (CONSENT_BINDING, added by page-setup.ts), so the
// page is taken after the answer, not before (consent/watch.ts). Before the page is taken,
// the Durable Object also asks each document for one more detection round on the document as it is
// then (CONSENT_ROUND, consent/round.ts), so a round the engine would run late on a busy
// machine cannot miss a dialog. The site rules stay with the Durable Object, asked for by the
// documents that may run one (consent-rules.ts). A page whose request keeps its dialogs (consent:
// "keep") never runs this script.
import type { CompactCMPRuleset } from '@duckduckgo/autoconsent';
// The preload's part of the package's rule set, split by the build (scripts/consent-rule-split.mjs).
import { rulesSource } from 'page-fetch:consent-rules';
import { CONSENT_BINDING, CONSENT_ROUND, type ConsentRulesRequest } from '../../in-page/protocol';
import { type Binding, type Round, runEngine } from './engine';
import { baseRulesFor, commentText, type PreloadRules, siteRuleCandidates } from '../rules';

/** Defines the round function on the page's main world: not enumerable, so the page's own scans of `window` skip it. */
function offerRounds(round: Round): void {
  const call = () => round().catch(() => false);
  Object.defineProperty(globalThis, CONSENT_ROUND, { value: call, configurable: true, enumerable: false, writable: false });
}

function start(): void {
  const installed = (globalThis as Record<string, unknown>)[CONSENT_BINDING];
  if (typeof installed !== 'function') return;
  const binding = installed as Binding;
  const { base, siteTexts } = JSON.parse(commentText(rulesSource.toString())) as PreloadRules;
  const url = location.href;
  const mainFrame = window.top === window;
  const baseRules = () => baseRulesFor(url, mainFrame, base);
  if (siteRuleCandidates(url, siteTexts).length === 0) {
    offerRounds(runEngine(binding, baseRules(), document));
    return;
  }
  // A site rule may run here: the Durable Object keeps them. Detection starts once DOMContentLoaded
  // has passed and the answer is in, whichever comes last; a refused or failed request runs the base.
  // A round asked for before then waits for the engine.
  const request: ConsentRulesRequest = { rulesFor: url, mainFrame };
  const engine = Promise.resolve(binding(JSON.stringify(request)))
    .then((answer) => (typeof answer === 'string' ? (JSON.parse(answer) as CompactCMPRuleset) : baseRules()), baseRules)
    .then((rules) => runEngine(binding, rules, document));
  engine.catch(() => undefined);
  offerRounds(() => engine.then((round) => round()));
}

try {
  start();
} catch {
  // A document autoconsent cannot run in loads as it would.
}
