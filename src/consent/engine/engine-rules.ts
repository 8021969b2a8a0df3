// The rules as the consent engine is given them: the package's own decoding of its compact rules
// (decodeRules), with three costs taken out, none changing what a rule detects. The engine looks for
// a dialog at the first idle moment and every 500 ms after, by running every rule's detection
// steps; on a page without a dialog that was the largest part of what the preload cost a page.
// - A rule whose detection starts with an element that must exist (most of them) joins the engine
//   only once that element is in the document: before, each of some 200 rules was decoded, held by
//   the engine and run at every round to conclude "not detected".
// - A rule's fields are decoded once, where a compact rule decodes them afresh at every read.
// - A held rule whose first element is gone again gives no steps, which the engine reads as "not
//   detected" without a chain of promises.
import { type CompactCMPRule, type CompactCMPRuleset, decodeRules } from '@duckduckgo/autoconsent';

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

/** The compact form of the `exists` key of a step (the package's encoding): the index of its selector among the strings. */
const COMPACT_EXISTS = 'e';

/**
 * The selector of a compact rule's first detection step when the engine settles that step by one
 * `querySelectorAll(selector)` on the document and nothing else: `exists` with a plain CSS selector
 * (the engine reads `xpath/`, `aria/`, `text/` and `pierce/` otherwise), and no other key
 * (`optional`, `negated`…) that would change what a miss means. Read from the compact form, so a
 * rule that never runs is never decoded.
 */
export function firstElementOf(rule: CompactCMPRule, strings: readonly string[]): string | null {
  const step = rule[6][0] as Record<string, unknown> | undefined;
  if (step === undefined) return null;
  for (const key in step) if (key !== COMPACT_EXISTS) return null;
  const selector = typeof step[COMPACT_EXISTS] === 'number' ? strings[step[COMPACT_EXISTS]] : undefined;
  if (selector === undefined || /^(xpath|aria|text|pierce)\//.test(selector)) return null;
  return selector;
}

/**
 * The package's rule with each field read once: a compact rule decodes its steps afresh at every
 * read, and the engine reads every rule's detection steps at every round. These are the fields of
 * the package's compact rule (its getters and its own `intermediate` and `optIn`). One object a
 * rule, its fields kept on it: this runs in every document before the page's own scripts.
 *
 * A rule with a first element (firstElementOf) is held once that element was there, but it may be
 * gone again. The engine reads the steps (`rule.detectCmp`) and evaluates that first step in the
 * same synchronous run, so the same query made at the read gives the engine's answer: a rule whose
 * first element is missing is given no detection steps, which the engine reads as "not detected",
 * as it would have concluded after a chain of promises. A query that throws (a selector this
 * browser rejects) leaves the steps to the engine, which fails the rule.
 */
class RuleReadOnce implements EngineRule {
  readonly name: string;
  readonly minimumRuleStepVersion: number | undefined;
  readonly runContext: PackageRule['runContext'];
  readonly cosmetic: boolean | undefined;
  readonly intermediate: boolean | undefined;
  readonly optIn: Steps;
  #detectSteps: Steps | undefined;
  #detectPopup: Steps | undefined;
  #optOut: Steps | undefined;
  #test: Steps | undefined;

  constructor(
    private readonly rule: PackageRule,
    /** The selector of the first step when the engine settles it by one query (firstElementOf), else null. */
    private readonly firstElement: string | null,
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
    if (this.firstElement !== null && missing(this.root, this.firstElement)) return undefined;
    if (this.#detectSteps === undefined) this.#detectSteps = this.rule.detectCmp;
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

/** The engine's rules for one document (see the top of this file). */
export interface EngineRuleSet {
  /** The rules whose detection does not start with one plain CSS element: the engine holds them from its start. */
  readonly atStart: EngineRule[];
  /**
   * The other rules whose first element the document holds now, each rule once: the engine takes
   * them before each round. A selector the browser rejects admits its rule, whose steps the
   * engine then fails.
   */
  admit(): EngineRule[];
}

/** The engine's rules for `rules` (the compact set a document runs), read from `root`. */
export function engineRuleSet(rules: CompactCMPRuleset, root: SelectorRoot): EngineRuleSet {
  const atStart: EngineRule[] = [];
  let waiting: { rule: CompactCMPRule; firstElement: string }[] = [];
  // Decoded one by one: the package's decodeRules leaves out a rule of a newer step version.
  const decoded = (rule: CompactCMPRule, firstElement: string | null): EngineRule[] =>
    decodeRules({ v: rules.v, s: rules.s, r: [rule] }).map((packageRule) => new RuleReadOnce(packageRule, firstElement, root));
  // Plain loops: this runs in every document before the page's own scripts.
  for (const rule of rules.r) {
    const firstElement = firstElementOf(rule, rules.s);
    if (firstElement === null) atStart.push(...decoded(rule, null));
    else waiting.push({ rule, firstElement });
  }
  const admit = (): EngineRule[] => {
    const admitted: EngineRule[] = [];
    const stillWaiting: typeof waiting = [];
    for (const entry of waiting) {
      if (missing(root, entry.firstElement)) stillWaiting.push(entry);
      else admitted.push(...decoded(entry.rule, entry.firstElement));
    }
    waiting = stillWaiting;
    return admitted;
  };
  return { atStart, admit };
}
