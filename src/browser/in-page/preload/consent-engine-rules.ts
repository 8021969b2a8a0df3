// The rules as the consent engine is given them: the package's own decoding of its compact rules
// (decodeRules), with two costs taken out of every detection round, neither changing what a rule
// detects. The engine looks for a dialog at the first idle moment and every 500 ms after, by
// running every rule's detection steps; on a page without a dialog that was the largest part of
// what the preload cost a page (the benchmark article, the engine's own performance measures: its
// two detection rounds took 14.0 ms of the renderer, 6.9 ms with the rules given as here).
import { type CompactCMPRuleset, decodeRules } from '@duckduckgo/autoconsent';

export type PackageRule = ReturnType<typeof decodeRules>[number];
type Steps = PackageRule['detectCmp'];

/**
 * A rule as the engine reads it. The package's type has detection steps on every rule; its engine
 * reads a rule without them (`if (this.rule.detectCmp)`) as not detected.
 */
export type EngineRule = Omit<PackageRule, 'detectCmp'> & { readonly detectCmp: Steps | undefined };

/** Where a step's selector is read: the document, in the page (null: no element matches). */
export interface SelectorRoot {
  querySelector(selector: string): unknown;
}

/**
 * A step the engine settles by one `querySelectorAll(selector)` on the document and nothing else:
 * `exists` with a plain CSS selector (the engine reads `xpath/`, `aria/`, `text/` and `pierce/`
 * otherwise), and no other key (`optional`, `negated`…) that would change what a miss means.
 */
function cssExistsSelector(step: Steps[number] | undefined): string | undefined {
  if (step === undefined || typeof step.exists !== 'string') return undefined;
  if (Object.keys(step).length !== 1 || /^(xpath|aria|text|pierce)\//.test(step.exists)) return undefined;
  return step.exists;
}

/**
 * The package's rule with each field read once: a compact rule decodes its steps afresh at every
 * read, and the engine reads every rule's detection steps at every round. These are the fields of
 * the package's compact rule (its getters and its own `intermediate` and `optIn`). One object a
 * rule, its fields kept on it: this runs in every document before the page's own scripts.
 *
 * Most rules' detection starts with an element that must exist; without it the engine's detection
 * of that rule ends false after a chain of promises per rule. The engine reads the steps
 * (`rule.detectCmp`) and evaluates that first step in the same synchronous run, so the same query
 * made at the read gives the engine's answer: a rule whose first element is missing is given no
 * detection steps, which the engine reads as "not detected", as it would have concluded. A query
 * that throws (a selector this browser rejects) leaves the steps to the engine, which fails the rule.
 */
class RuleReadOnce implements EngineRule {
  readonly name: string;
  readonly minimumRuleStepVersion: number | undefined;
  readonly runContext: PackageRule['runContext'];
  readonly cosmetic: boolean | undefined;
  readonly intermediate: boolean | undefined;
  readonly optIn: Steps;
  #detectSteps: Steps | undefined;
  /** The selector of the first step when the engine settles it by one query, else null. */
  #firstElement: string | null | undefined;
  #detectPopup: Steps | undefined;
  #optOut: Steps | undefined;
  #test: Steps | undefined;

  constructor(
    private readonly rule: PackageRule,
    private readonly root: SelectorRoot,
  ) {
    this.name = rule.name;
    this.minimumRuleStepVersion = rule.minimumRuleStepVersion;
    this.runContext = rule.runContext;
    this.cosmetic = rule.cosmetic;
    this.intermediate = rule.intermediate;
    this.optIn = rule.optIn;
  }

  get prehideSelectors(): PackageRule['prehideSelectors'] {
    return this.rule.prehideSelectors;
  }

  get detectCmp(): Steps | undefined {
    if (this.#detectSteps === undefined) {
      this.#detectSteps = this.rule.detectCmp;
      this.#firstElement = cssExistsSelector(this.#detectSteps[0]) ?? null;
    }
    if (this.#firstElement && missing(this.root, this.#firstElement)) return undefined;
    return this.#detectSteps;
  }

  get detectPopup(): Steps {
    if (this.#detectPopup === undefined) this.#detectPopup = this.rule.detectPopup;
    return this.#detectPopup;
  }

  get optOut(): Steps {
    if (this.#optOut === undefined) this.#optOut = this.rule.optOut;
    return this.#optOut;
  }

  get test(): Steps | undefined {
    if (this.#test === undefined) this.#test = this.rule.test;
    return this.#test;
  }
}

function missing(root: SelectorRoot, selector: string): boolean {
  try {
    return root.querySelector(selector) === null;
  } catch {
    return false;
  }
}

/**
 * The engine's rules for `rules` (the compact set a document runs), read from `root`; given to the
 * engine as its declarative rules (`{ autoconsent: … }`), whose type wants `PackageRule[]`.
 */
export function engineRules(rules: CompactCMPRuleset, root: SelectorRoot): EngineRule[] {
  return decodeRules(rules).map((rule) => new RuleReadOnce(rule, root));
}
