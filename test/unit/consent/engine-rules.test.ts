// The rules the consent engine is given (consent/engine/engine-rules.ts): every field the
// package's own decoding gives, read once; a rule whose detection starts with a plain CSS element
// given only once the document holds it; and no detection steps, which the engine reads as "not
// detected", for a given rule whose first element is gone again.
import { decodeRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { type EngineRule, engineRuleSet, firstElementOf, type SelectorRoot } from '../../../src/consent/engine/engine-rules.js';

const RULES = COMPACT_RULES as unknown as IndexedCMPRuleset;
const PACKAGE_RULES = decodeRules(RULES);

/** A document in which every selector finds an element, and one in which none does. */
const everything: SelectorRoot = { querySelector: () => ({}) as Element };
const nothing: SelectorRoot = { querySelector: () => null };

/** Every field of a package rule: its own and its class's getters, but the compact form itself. */
function fieldsOf(rule: object): string[] {
  const prototype = Object.entries(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(rule)));
  const getters = prototype.filter(([, descriptor]) => descriptor.get !== undefined).map(([key]) => key);
  return [...Object.keys(rule), ...getters].filter((key) => key !== 'r' && key !== 's');
}

const field = (rule: object, key: string): unknown => (rule as Record<string, unknown>)[key];

/** The package rule's detection, with the first step a CSS element and nothing else, or not. */
const firstStep = (index: number) => PACKAGE_RULES[index]!.detectCmp[0];
const startsWithCssElement = (index: number) => {
  const step = firstStep(index);
  return (
    step !== undefined &&
    typeof step.exists === 'string' &&
    Object.keys(step).length === 1 &&
    !/^(xpath|aria|text|pierce)\//.test(step.exists)
  );
};

/** The package's rules in the order the engine gets them from a document holding every element: those without a first element, then the others. */
const IN_ENGINE_ORDER = [
  ...PACKAGE_RULES.filter((_, index) => !startsWithCssElement(index)),
  ...PACKAGE_RULES.filter((_, index) => startsWithCssElement(index)),
];

/** Every rule the engine gets from `root`: at its start, then at one round. */
function allRules(root: SelectorRoot): EngineRule[] {
  const rules = engineRuleSet(RULES, root);
  return [...rules.atStart, ...rules.admit()];
}

describe('firstElementOf', () => {
  it('reads from the compact form what the package decodes: a first step of one plain CSS exists, or none', () => {
    RULES.r.forEach((rule, index) => {
      const step = firstStep(index);
      const expected = startsWithCssElement(index) ? step!.exists : null;
      expect(firstElementOf(rule, RULES.s), PACKAGE_RULES[index]!.name).toBe(expected);
    });
  });
});

describe('engineRuleSet', () => {
  it('gives every rule of the set with every field the package decodes, equal', () => {
    expect(RULES.r).toHaveLength(PACKAGE_RULES.length);
    const rules = allRules(everything);
    expect(rules).toHaveLength(IN_ENGINE_ORDER.length);
    IN_ENGINE_ORDER.forEach((packageRule, index) => {
      for (const key of fieldsOf(packageRule)) {
        expect(field(rules[index]!, key), `${packageRule.name}.${key}`).toEqual(field(packageRule, key));
      }
    });
  });

  it('decodes each field once and gives the same steps at every read', () => {
    const [rule] = allRules(everything);
    expect(rule!.optOut).toBe(rule!.optOut);
    expect(rule!.detectPopup).toBe(rule!.detectPopup);
    expect(rule!.detectCmp).toBe(rule!.detectCmp);
  });

  it('holds back every rule whose first element is missing, and gives every other at the start with its steps', () => {
    const rules = engineRuleSet(RULES, nothing);
    const gated = PACKAGE_RULES.filter((_, index) => startsWithCssElement(index));
    // Most rules start with a plain element; the others (optional, negated, xpath, chains, visible, any)
    // are left to the engine.
    expect(gated.length).toBeGreaterThan(PACKAGE_RULES.length / 2);
    const ungated = PACKAGE_RULES.filter((_, index) => !startsWithCssElement(index));
    expect(ungated.length).toBeGreaterThan(0);
    expect(rules.atStart.map((rule) => rule.name)).toEqual(ungated.map((rule) => rule.name));
    expect(rules.atStart.map((rule) => rule.detectCmp)).toEqual(ungated.map((rule) => rule.detectCmp));
    expect(rules.admit()).toEqual([]);
  });

  it('gives a rule whose selector throws, and leaves its steps to the engine', () => {
    const throwing: SelectorRoot = {
      querySelector: () => {
        throw new SyntaxError('not a valid selector');
      },
    };
    const index = PACKAGE_RULES.findIndex((_, i) => startsWithCssElement(i));
    const admitted = engineRuleSet(RULES, throwing).admit();
    const rule = admitted.find((candidate) => candidate.name === PACKAGE_RULES[index]!.name);
    expect(rule!.detectCmp).toEqual(PACKAGE_RULES[index]!.detectCmp);
  });

  it('gives a rule once its element is added, once, and no steps when the element is gone again', () => {
    const { document } = parseHTML('<html><body><p>An article.</p></body></html>');
    const rules = engineRuleSet(RULES, document);
    expect(firstStep(PACKAGE_RULES.findIndex((rule) => rule.name === 'didomi'))).toEqual({ exists: '#didomi-host' });
    expect(rules.atStart.find((rule) => rule.name === 'didomi')).toBeUndefined();
    expect(rules.admit().find((rule) => rule.name === 'didomi')).toBeUndefined();
    const host = document.createElement('div');
    host.id = 'didomi-host';
    document.body.append(host);
    const admitted = rules.admit();
    expect(admitted.map((rule) => rule.name)).toEqual(['didomi']);
    expect(admitted[0]!.detectCmp).toEqual([{ exists: '#didomi-host' }]);
    expect(rules.admit()).toEqual([]);
    host.remove();
    expect(admitted[0]!.detectCmp).toBeUndefined();
  });
});
