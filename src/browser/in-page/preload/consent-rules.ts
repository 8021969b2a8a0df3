// The consent rules one document runs (see consent.ts): the package's own filter
// (filterCompactRules), given the generic and frame rules and only the site rules whose URL texts
// (scripts/consent-rule-split.mjs) the document's URL holds. The result is the filter's result on the
// whole set; the site rules' text is parsed only when one of them is a candidate.
import { type CompactCMPRule, type CompactCMPRuleset, filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';

/** The split rule set as the build delivers it. */
export interface SplitRules {
  /** The rule set without its site rules: generic and frame rules, their strings, the package's index. */
  base: IndexedCMPRuleset;
  /** Per site rule, texts one of which every URL it runs on contains; null: no such text. */
  siteTexts: (string[] | null)[];
  /** The site rules and the strings only they use, read when needed. */
  site: () => { r: CompactCMPRule[]; s: string[] };
}

export function consentRulesFor(url: string, mainFrame: boolean, split: SplitRules): CompactCMPRuleset {
  const { base, siteTexts } = split;
  const candidates: number[] = [];
  // Plain loops: this runs once per document, before anything is optimized, and callbacks cost a
  // fresh renderer three times as much here (0.6 against 0.2 ms).
  for (let i = 0; i < siteTexts.length; i++) {
    const texts = siteTexts[i];
    if (texts === null || texts === undefined) {
      candidates.push(i);
      continue;
    }
    for (const text of texts) {
      if (url.includes(text)) {
        candidates.push(i);
        break;
      }
    }
  }
  const [siteStart] = base.index.specificRuleRange;
  const [frameStart, frameEnd] = base.index.frameRuleRange;
  // Without a candidate the site rules' text is never parsed: their part is empty.
  const site = candidates.length > 0 ? split.site() : { r: [], s: [] };
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
