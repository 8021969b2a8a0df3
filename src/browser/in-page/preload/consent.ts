// Declines cookie-consent dialogs (DESIGN.md "Consent dialogs", consent: "reject"): DuckDuckGo's
// autoconsent (@duckduckgo/autoconsent, MPL-2.0, bundled from the package as it ships) runs in every
// frame's main world before the page's own scripts, with its maintained rule set, and answers each
// dialog of a known consent platform as a person who declines would (autoAction "optOut": reject or
// "necessary only", never accept), through the dialog's buttons or its platform's API. Its progress
// goes to the Durable Object through a binding (CONSENT_BINDING, added by page-setup.ts), so the
// page is taken after the answer, not before (browser/consent-watch.ts). Before the page is taken,
// the Durable Object also asks each document for one more detection round on the document as it is
// then (CONSENT_ROUND, browser/consent-round.ts), so a round the engine would run late on a busy
// machine cannot miss a dialog. The site rules stay with the Durable Object, asked for by the
// documents that may run one (consent-rules.ts). A page whose request keeps its dialogs (consent:
// "keep") never runs this script.
import AutoConsent, { type CompactCMPRuleset, type ContentScriptMessage } from '@duckduckgo/autoconsent';
// The preload's part of the package's rule set, split by the build (scripts/consent-rule-split.mjs).
import { rulesSource } from 'page-fetch:consent-rules';
import { CONSENT_BINDING, CONSENT_ROUND, type ConsentReport, type ConsentRulesRequest } from '../protocol';
import { engineRuleSet, type PackageRule } from './consent-engine-rules';
import { baseRulesFor, commentText, type PreloadRules, siteRuleCandidates } from './consent-rules';

/** How often detection looks for a dialog (every 500 ms): a dialog that shows later than this is not waited for. */
const DETECT_RETRIES = 8;

type Binding = (payload: string) => unknown;
/** A consent platform the engine knows (a rule, declarative or code). */
type Platform = Awaited<ReturnType<AutoConsent['findCmp']>>[number];
/** One detection round on the document as it is; resolves once a dialog found has its answer. */
type Round = () => Promise<boolean>;

function run(binding: Binding, rules: CompactCMPRuleset): Round {
  const frame = Math.random().toString(36).slice(2);
  const report = (message: ConsentReport) => {
    try {
      binding(JSON.stringify(message));
    } catch {
      // The page took the binding away: the Durable Object just hears nothing more of this frame.
    }
  };
  // 'found' is reported where the answer starts (handlePopup, below), whoever found the dialog.
  const send = async (message: ContentScriptMessage) => {
    switch (message.type) {
      case 'optOutResult':
        return report({ frame, event: message.result ? 'declined' : 'failed', cmp: message.cmp });
      case 'autoconsentDone':
        return report({ frame, event: 'done', cmp: message.cmp });
      case 'autoconsentError':
        return report({ frame, event: 'failed', cmp: '' });
    }
  };
  const consent = new AutoConsent(send);
  const engineRules = engineRuleSet(rules, document);
  // The engine looks for a dialog in rounds: findCmp, which calls itself again for each retry. Before
  // each round, the rules whose first element the document now holds join it (consent-engine-rules.ts).
  const findCmp = consent.findCmp.bind(consent);
  consent.findCmp = (retries: number) => {
    for (const rule of engineRules.admit()) consent.addDeclarativeCMP(rule as unknown as PackageRule);
    return findCmp(retries);
  };
  // One answer a document, as the engine gives: its own rounds and the rounds the Durable Object
  // asks for (below) may find the same dialog, which is answered once, and reported found once.
  let answer: Promise<boolean> | undefined;
  const handlePopup = consent.handlePopup.bind(consent);
  consent.handlePopup = (cmp: Platform) => {
    if (answer === undefined) {
      report({ frame, event: 'found', cmp: cmp.name });
      answer = handlePopup(cmp);
    }
    return answer;
  };
  consent.initialize(
    {
      enabled: true,
      autoAction: 'optOut',
      isMainWorld: true,
      // Prehiding writes a style element of some 200 selectors into every document until detection
      // ends (4 s), which an html answer read before then would carry; the output never reads the
      // opacity it sets.
      enablePrehide: false,
      enableCosmeticRules: true,
      enableGeneratedRules: true,
      enableHeuristicDetection: false,
      enablePopupMutationObserver: false,
      detectRetries: DETECT_RETRIES,
      logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
    },
    // The rules without a first element to wait for; the others join before each round (above).
    { autoconsent: engineRules.atStart as unknown as PackageRule[] },
  );
  // The round the Durable Object asks for: the engine's own round (findCmp, no retry), then one look
  // at each found platform's dialog, code rules before cosmetic ones as the engine orders them; an
  // open one is answered now. A dialog being answered already is waited for.
  return async () => {
    if (answer === undefined) {
      const found = await consent.findCmp(0);
      for (const platforms of [found.filter((cmp) => !cmp.isCosmetic), found.filter((cmp) => cmp.isCosmetic)]) {
        if (answer !== undefined) break;
        const open = await Promise.all(platforms.map((cmp) => cmp.detectPopup().then(Boolean, () => false)));
        const first = platforms.find((_, i) => open[i]);
        if (first !== undefined) await consent.handlePopup(first);
      }
    }
    if (answer === undefined) return false;
    await answer.catch(() => false);
    return true;
  };
}

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
    offerRounds(run(binding, baseRules()));
    return;
  }
  // A site rule may run here: the Durable Object keeps them. Detection starts once DOMContentLoaded
  // has passed and the answer is in, whichever comes last; a refused or failed request runs the base.
  // A round asked for before then waits for the engine.
  const request: ConsentRulesRequest = { rulesFor: url, mainFrame };
  const engine = Promise.resolve(binding(JSON.stringify(request)))
    .then((answer) => (typeof answer === 'string' ? (JSON.parse(answer) as CompactCMPRuleset) : baseRules()), baseRules)
    .then((rules) => run(binding, rules));
  engine.catch(() => undefined);
  offerRounds(() => engine.then((round) => round()));
}

try {
  start();
} catch {
  // A document autoconsent cannot run in loads as it would.
}
