// The consent rules one document runs (see consent.ts): the package's own filter
// (filterCompactRules), given the generic and frame rules and only the site rules whose URL texts
// (scripts/consent-rule-split.mjs) the document's URL holds. The result is the filter's result on the
// whole set. The preload carries the base and the texts (indexed) only: a document whose URL holds no text runs
// the base (baseRulesFor); one whose URL holds one asks the Durable Object, which keeps the site rules
// and answers with consentRulesFor (consent/site-rules.ts).
import type { DetectionProbes } from './engine/gate.js';
import { type CompactCMPRule, type CompactCMPRuleset, filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';

/** The part of the split rule set the preload reads only where a dialog may show (gate.ts). */
export interface PreloadBase {
  base: IndexedCMPRuleset;
}

/** The site texts by their first `keyLength` characters (scripts/consent-rule-split.mjs, siteTextIndex). */
export interface SiteTextIndex {
  keyLength: number;
  /** Per key, the pairs [site rule, text] whose text starts with it. */
  byKey: Record<string, [number, string][]>;
  /** Site rules without texts: always candidates. */
  always: number[];
}

/** The part of the split rule set every document reads: the site texts' index, and what the base's rules need to detect. */
export interface PreloadGate {
  siteIndex: SiteTextIndex;
  probes: DetectionProbes;
}

/** The split rule set as the Durable Object reads it (build/consent-rules.json). */
export interface SplitRules {
  /** The rule set without its site rules: generic and frame rules, their strings, the package's index. */
  base: IndexedCMPRuleset;
  /** Per site rule, texts one of which every URL it runs on contains, indexed. */
  siteIndex: SiteTextIndex;
  /** The site rules and the strings only they use, read when needed. */
  site: () => SiteRules;
}

/** The site rules and the strings only they use. */
export type SiteRules = { r: CompactCMPRule[]; s: string[] };

const NO_SITE_RULES: SiteRules = { r: [], s: [] };

/**
 * The site rules whose texts `url` holds, by their place among the site rules: each place of `url`
 * is looked up once in the index by the characters that start there. What a document runs first,
 * before the page's own scripts: testing every text against the URL cost a fresh renderer about 2 ms.
 */
export function siteRuleCandidates(url: string, index: SiteTextIndex): number[] {
  const found = new Set(index.always);
  for (let at = 0; at + index.keyLength <= url.length; at++) {
    const key = url.slice(at, at + index.keyLength);
    if (!Object.hasOwn(index.byKey, key)) continue;
    for (const [rule, text] of index.byKey[key]!) if (url.startsWith(text, at)) found.add(rule);
  }
  return [...found].sort((a, b) => a - b);
}

/** The rules of a document whose URL holds no site rule's text: what the package's filter gives it from the whole set. */
export function baseRulesFor(url: string, mainFrame: boolean, base: IndexedCMPRuleset): CompactCMPRuleset {
  return rulesWith(url, mainFrame, base, [], NO_SITE_RULES);
}

export function consentRulesFor(url: string, mainFrame: boolean, split: SplitRules): CompactCMPRuleset {
  const candidates = siteRuleCandidates(url, split.siteIndex);
  // Without a candidate the site rules are never read: their part is empty.
  return rulesWith(url, mainFrame, split.base, candidates, candidates.length > 0 ? split.site() : NO_SITE_RULES);
}

/** The package's filter on the base with the `candidates` of the site rules appended. */
function rulesWith(url: string, mainFrame: boolean, base: IndexedCMPRuleset, candidates: number[], site: SiteRules): CompactCMPRuleset {
  const [siteStart] = base.index.specificRuleRange;
  const [frameStart, frameEnd] = base.index.frameRuleRange;
  // Site rules that also run in frames come first among them, as in the package's layout.
  const framesKept = candidates.filter((i) => siteStart + i < frameEnd).length;
  const ruleset: IndexedCMPRuleset = {
    v: base.v,
    s: [...base.s, ...site.s],
    r: [...base.r, ...candidates.map((i) => site.r[i] as CompactCMPRule)],
    index: {
      ...base.index,
      frameRuleRange: [frameStart, frameEnd > siteStart ? siteStart + framesKept : frameEnd],
      specificRuleRange: [siteStart, siteStart + candidates.length],
    },
  };
  return filterCompactRules(ruleset, { url, mainFrame });
}

/** The text of the comment in a function's source: how the build delivers the rules (scripts/consent-rule-split.mjs). */
export function commentText(source: string): string {
  return source.slice(source.indexOf('/*') + 2, source.lastIndexOf('*/'));
}
