// The consent engine of one document: DuckDuckGo's autoconsent (its AutoConsent class, as the package
// ships it) given the document's rules, answering dialogs as a person who declines would, and
// reporting through the binding what the Durable Object waits for (consent/watch.ts). The
// engine looks for a dialog in rounds of its own; `runEngine` also gives a round on demand, which
// the Durable Object asks for before the page is taken (docs/consent.md "Waiting"). What this reads
// of the package's class is pinned by test/unit/consent/engine.test.ts.
import AutoConsent, { type CompactCMPRuleset, type ContentScriptMessage } from '@duckduckgo/autoconsent';
import { CONSENT_STILL_SHOWN, type ConsentReport } from '../../in-page/protocol';
import { engineRuleSet, type PackageRule, type SelectorRoot } from './engine-rules';

/**
 * How many more times than once the engine's own detection looks for a dialog (every
 * DETECT_INTERVAL_MS, and from the third look on only after the document changed: the package's
 * findCmp); a dialog that shows later is answered only if it is there when the round asked before
 * the page is taken looks.
 */
export const DETECT_RETRIES = 8;
/** The package's pause between two of the engine's looks. */
export const DETECT_INTERVAL_MS = 500;

/** The consent binding (or a stand-in): takes a JSON payload. */
export type Binding = (payload: string) => unknown;
/** A consent platform the engine knows (a rule, declarative or code). */
type Platform = Awaited<ReturnType<AutoConsent['findCmp']>>[number];
/**
 * One detection round on the document as it is; resolves once a dialog found has its answer. Asked
 * CONSENT_STILL_SHOWN, it looks instead whether the dialog it declined still shows.
 */
export type Round = (question?: typeof CONSENT_STILL_SHOWN) => Promise<boolean>;

/**
 * How long one look at a declined dialog may take: a platform's detection can wait for elements,
 * which a closed dialog never brings back.
 */
const SHOWN_LOOK_MS = 250;

/** Whether a dialog declined (not one whose answer failed: that one stays) still shows. */
async function stillShown(answer: Promise<boolean>, platform: Platform): Promise<boolean> {
  if (!(await answer.catch(() => false))) return false;
  const timeUp = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SHOWN_LOOK_MS));
  return Promise.race([platform.detectPopup().then(Boolean, () => false), timeUp]);
}

/** Starts the engine on `document` with `rules`; returns the round the Durable Object asks for. */
export function runEngine(binding: Binding, rules: CompactCMPRuleset, document: SelectorRoot): Round {
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
  // each round, the rules whose first element the document now holds join it (engine-rules.ts).
  const findCmp = consent.findCmp.bind(consent);
  consent.findCmp = (retries: number) => {
    for (const rule of engineRules.admit()) consent.addDeclarativeCMP(rule as unknown as PackageRule);
    return findCmp(retries);
  };
  // One answer a document, as the engine gives: its own rounds and the rounds the Durable Object
  // asks for (below) may find the same dialog, which is answered once, and reported found once.
  let answer: Promise<boolean> | undefined;
  let answered: Platform | undefined;
  const handlePopup = consent.handlePopup.bind(consent);
  consent.handlePopup = (cmp: Platform) => {
    if (answer === undefined) {
      report({ frame, event: 'found', cmp: cmp.name });
      answered = cmp;
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
  return async (question) => {
    if (question === CONSENT_STILL_SHOWN) return answer !== undefined && answered !== undefined && stillShown(answer, answered);
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
