// The consent rule set split at build time (scripts/consent-rule-split.mjs) and put together again per
// document (consent/rules.ts): a document gets exactly the rules the package's own
// filter would give it from the whole set, whatever its URL and frame kind: from the base it carries
// when its URL holds no site rule's text, from the Durable Object's whole set when it does.
import { filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { describe, expect, it } from 'vitest';
import {
  requiredText,
  requiredTexts,
  splitRuleSet,
  detectionProbes,
  siteTextIndex,
  splitRulesModule,
  topLevelAlternatives,
  withRuleComments,
} from '../../../scripts/consent-rule-split.mjs';
import { baseRulesFor, commentText, consentRulesFor, type SplitRules, siteRuleCandidates } from '../../../src/consent/rules.js';

const RULES = COMPACT_RULES as unknown as IndexedCMPRuleset;
const parts = splitRuleSet(RULES);
const siteIndex = siteTextIndex(parts.siteTexts);
const split: SplitRules = { base: parts.base, siteIndex, site: () => parts.site };

/** The candidates by testing every site text against the URL: what the index must find. */
function candidatesByEveryText(url: string, siteTexts: (string[] | null)[]): number[] {
  return siteTexts.flatMap((texts, rule) => (texts === null || texts.some((text) => url.includes(text)) ? [rule] : []));
}
const sitePatterns = RULES.r.slice(RULES.index.specificRuleRange[0]).map((rule) => rule[3]);

/** URLs around every site rule's texts: most of them match the rule's pattern. */
function urlsNearSiteRules(): string[] {
  const urls = new Set<string>();
  for (const texts of parts.siteTexts) {
    for (const text of texts ?? []) {
      for (const prefix of ['https://', 'https://www.', 'http://', 'https://help.', 'https', 'http', ''])
        for (const suffix of ['', 'path/page?x=1']) urls.add(`${prefix}${text}${suffix}`);
    }
  }
  return [...urls];
}

describe('requiredText', () => {
  it.each([
    ['^https?://(www\\.)?dropbox\\.com/', 'dropbox.com/'],
    ['^https://plus\\.gmx\\.com/lt(?:[?#]|$)', 'https://plus.gmx.com/lt'],
    ['^https://(www|help)\\.coinbase\\.com', '.coinbase.com'],
    ['^https://(www\\.)?(m\\.)?imdb.com/', 'imdb'],
    ['^https://example\\.com?/', 'https://example.co'],
    ['^https://shop\\.examples*\\.org', 'https://shop.example'],
    ['^https://a{2}bcd\\.org', 'bcd.org'],
    ['^https://a{12345678}b\\.c', 'b.c'],
    ['^https://[a-z]+\\.example\\.net/', '.example.net/'],
    ['^https://x+yz\\.example/', 'yz.example/'],
    ['^https://\\w+\\.site\\d\\.example/', '.example/'],
    ['^https://(foo|bar)\\.com/', '.com/'],
  ])('reads %j as needing %j', (pattern, text) => {
    expect(requiredText(pattern)).toBe(text);
  });

  it('splits at top-level bars only', () => {
    expect(topLevelAlternatives('^a(b|c)|[|]d|e\\|f')).toEqual(['^a(b|c)', '[|]d', 'e\\|f']);
  });

  it('gives no texts when an alternative has none worth testing', () => {
    expect(requiredTexts('^https://(www\\.)?(aa|bb)\\.c/')).toBeNull();
    expect(requiredTexts('^https://caf\\u00e9\\.example/')).toBeNull();
    expect(requiredTexts('^https://(ab)\\12345\\.example/')).toBeNull();
    expect(requiredTexts('^https?://(www\\.)?a\\.com/|^https?://(www\\.)?b\\.com/')).toEqual(['a.com/', 'b.com/']);
  });
});

describe('the site rules texts', () => {
  it('are in every URL their rule matches', () => {
    const urls = urlsNearSiteRules();
    let rulesMatched = 0;
    sitePatterns.forEach((pattern, i) => {
      const regex = new RegExp(pattern);
      const texts = parts.siteTexts[i] ?? [];
      const matching = urls.filter((url) => regex.test(url));
      if (matching.length > 0) rulesMatched++;
      for (const url of matching)
        expect(
          texts.some((text: string) => url.includes(text)),
          `${pattern} on ${url}`,
        ).toBe(true);
    });
    // The URLs reach nearly every site rule, so the check above has something to check.
    expect(rulesMatched / sitePatterns.length).toBeGreaterThan(0.95);
  });

  it('exist for every site rule', () => {
    expect(parts.siteTexts.filter((texts: string[] | null) => texts === null)).toHaveLength(0);
  });
});

/**
 * The comparisons below run the package's filter, which compiles every site rule's pattern, for each
 * of 1000-odd URLs: about 2 to 4 s here alone, more beside the rest of the suite; the bound is for a
 * machine three times slower than this one, busy too.
 */
const COMPARISON_TIMEOUT_MS = 60_000;

describe('consentRulesFor', () => {
  const urls = [
    'https://example.org/',
    'https://www.theguardian.com/world/2024/jan/01/story',
    'http://127.0.0.1:8787/bench/article?fetch_ms=0',
    'https://www.bbc.co.uk/news',
    ...urlsNearSiteRules().filter((_, i) => i % 23 === 0),
  ];

  it.each([true, false])(
    'gives what the package filter gives from the whole set (main frame: %s)',
    (mainFrame) => {
      for (const url of urls) expect(consentRulesFor(url, mainFrame, split), url).toEqual(filterCompactRules(RULES, { url, mainFrame }));
    },
    COMPARISON_TIMEOUT_MS,
  );

  it.each([true, false])(
    'gives from the base alone what the package filter gives, for a URL without a site text (main frame: %s)',
    (mainFrame) => {
      const withoutTexts = [...urls, ...urlsNearSiteRules().map((url) => url.replace(/\./g, '-'))].filter(
        (url) => siteRuleCandidates(url, siteIndex).length === 0,
      );
      // Both kinds of URL are in the list: the ones near site rules lost their texts with their dots.
      expect(withoutTexts.length).toBeGreaterThan(1000);
      for (const url of withoutTexts)
        expect(baseRulesFor(url, mainFrame, parts.base), url).toEqual(filterCompactRules(RULES, { url, mainFrame }));
    },
    COMPARISON_TIMEOUT_MS,
  );

  it('finds the same candidates through the index as by testing every text, for every URL', () => {
    const all = [...urls, ...urlsNearSiteRules(), ...urlsNearSiteRules().map((url) => url.replace(/\./g, '-'))];
    let withCandidates = 0;
    for (const url of all) {
      const expected = candidatesByEveryText(url, parts.siteTexts);
      expect(siteRuleCandidates(url, siteIndex), url).toEqual(expected);
      if (expected.length > 0) withCandidates++;
    }
    expect(withCandidates).toBeGreaterThan(500);
  });

  it('finds through the index a text at the very end of the URL and a rule without texts', () => {
    const index = siteTextIndex([['example.org/end'], null, ['other.net']]);
    expect(siteRuleCandidates('https://example.org/end', index)).toEqual([0, 1]);
    expect(siteRuleCandidates('https://example.org/en', index)).toEqual([1]);
  });

  it('finds a candidate for a URL that holds a site text', () => {
    expect(siteRuleCandidates('https://www.dropbox.com/home', siteIndex).length).toBeGreaterThan(0);
    expect(siteRuleCandidates('https://example.org/', siteIndex)).toEqual([]);
  });

  it('reads the site rules only for a URL that holds one of their texts', () => {
    let reads = 0;
    const counting: SplitRules = {
      ...split,
      site: () => {
        reads++;
        return parts.site;
      },
    };
    consentRulesFor('https://example.org/', true, counting);
    expect(reads).toBe(0);
    consentRulesFor('https://www.dropbox.com/home', true, counting);
    expect(reads).toBe(1);
  });
});

describe('the built module', () => {
  it("carries the base in one comment and the site texts' index and the probes in another, each read back by its function as their JSON, and no site rule", async () => {
    const probes = detectionProbes(parts.base);
    const built = withRuleComments(splitRulesModule(), { base: parts.base, siteIndex, probes });
    const module = await import(`data:text/javascript,${encodeURIComponent(built)}`);
    expect(JSON.parse(commentText(module.rulesSource.toString()))).toEqual({ base: parts.base });
    expect(JSON.parse(commentText(module.gateSource.toString()))).toEqual({ siteIndex, probes });
    expect(Object.keys(module).sort()).toEqual(['gateSource', 'rulesSource']);
  });
});
