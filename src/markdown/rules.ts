// The rule table: every element kind with markdown syntax maps to one rule; elements without
// a rule are plain blocks or transparent inline wrappers (span, sup, mark, abbr, ...) whose
// text flows through. Built once; rules themselves are stateless.

import { blockRules, plainBlock } from './block-rules';
import { codeRules } from './code-rules';
import { inlineRules } from './inline-rules';
import { listRules } from './list-rules';
import { tableRules } from './table-rules';
import type { Rule, RuleSet } from './walk';

const transparentInline: Rule = {
  filter: [],
  replacement: (content) => content,
};

function buildRuleSet(rules: readonly Rule[]): RuleSet {
  const byTag = new Map<string, Rule>();
  for (const rule of rules) {
    for (const tag of rule.filter) byTag.set(tag, rule);
  }
  return { byTag, defaultBlock: plainBlock, defaultInline: transparentInline };
}

export const RULES: RuleSet = buildRuleSet([
  ...blockRules,
  ...listRules,
  ...tableRules,
  ...codeRules,
  ...inlineRules,
]);
