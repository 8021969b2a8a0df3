// The rules the consent engine is given (in-page/preload/consent-engine-rules.ts): every field the
// package's own decoding gives, read once; and no detection steps, which the engine reads as "not
// detected", only for a rule whose detection starts with a plain CSS element that the document lacks.
import { decodeRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { engineRules, type SelectorRoot } from '../../../../src/browser/in-page/preload/consent-engine-rules.js';

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

describe('engineRules', () => {
  it('gives every rule of the set with every field the package decodes, equal', () => {
    const rules = engineRules(RULES, everything);
    expect(rules).toHaveLength(PACKAGE_RULES.length);
    PACKAGE_RULES.forEach((packageRule, index) => {
      for (const key of fieldsOf(packageRule)) {
        expect(field(rules[index]!, key), `${packageRule.name}.${key}`).toEqual(field(packageRule, key));
      }
    });
  });

  it('decodes each field once and gives the same steps at every read', () => {
    const [rule] = engineRules(RULES, everything);
    expect(rule!.optOut).toBe(rule!.optOut);
    expect(rule!.detectPopup).toBe(rule!.detectPopup);
    expect(rule!.detectCmp).toBe(rule!.detectCmp);
  });

  it('gives no detection steps to a rule whose first element is missing, and keeps every other', () => {
    const rules = engineRules(RULES, nothing);
    const gated = PACKAGE_RULES.map((_, index) => startsWithCssElement(index));
    // Most rules start with a plain element; the others (optional, negated, xpath, chains, visible, any)
    // are left to the engine.
    expect(gated.filter(Boolean).length).toBeGreaterThan(PACKAGE_RULES.length / 2);
    expect(gated.some((isGated) => !isGated)).toBe(true);
    rules.forEach((rule, index) => {
      const expected = gated[index] ? undefined : PACKAGE_RULES[index]!.detectCmp;
      expect(rule.detectCmp, PACKAGE_RULES[index]!.name).toEqual(expected);
    });
  });

  it('leaves the steps to the engine when the selector throws', () => {
    const throwing: SelectorRoot = {
      querySelector: () => {
        throw new SyntaxError('not a valid selector');
      },
    };
    const index = PACKAGE_RULES.findIndex((_, i) => startsWithCssElement(i));
    expect(engineRules(RULES, throwing)[index]!.detectCmp).toEqual(PACKAGE_RULES[index]!.detectCmp);
  });

  it('asks the document afresh at every read: an element added later is found', () => {
    const { document } = parseHTML('<html><body><p>An article.</p></body></html>');
    const didomi = engineRules(RULES, document).find((rule) => rule.name === 'didomi');
    expect(firstStep(PACKAGE_RULES.findIndex((rule) => rule.name === 'didomi'))).toEqual({ exists: '#didomi-host' });
    expect(didomi!.detectCmp).toBeUndefined();
    const host = document.createElement('div');
    host.id = 'didomi-host';
    document.body.append(host);
    expect(didomi!.detectCmp).toEqual([{ exists: '#didomi-host' }]);
    host.remove();
    expect(didomi!.detectCmp).toBeUndefined();
  });
});
