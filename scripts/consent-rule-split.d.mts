// Types of consent-rule-split.mjs (a build script, plain JavaScript), for its unit tests.
import type { CompactCMPRule, IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import type { DetectionProbes } from '../src/consent/engine/gate.js';
import type { SiteTextIndex } from '../src/consent/rules.js';

export function topLevelAlternatives(pattern: string): string[];
export function requiredText(alternative: string): string;
export function requiredTexts(pattern: string): string[] | null;
export function splitRuleSet(ruleset: IndexedCMPRuleset): {
  base: IndexedCMPRuleset;
  siteTexts: (string[] | null)[];
  site: { r: CompactCMPRule[]; s: string[] };
};
export function splitRulesModule(): string;
export function withRuleComments(
  code: string,
  parts: { base: IndexedCMPRuleset; siteIndex: SiteTextIndex; probes: DetectionProbes },
): string;
export function siteTextIndex(siteTexts: (string[] | null)[]): SiteTextIndex;
export function detectionProbes(ruleset: { r: CompactCMPRule[]; s: unknown[] }): DetectionProbes;
