// The rule table: every element kind with markdown syntax maps to one rule; elements without
// a rule are plain blocks or transparent inline wrappers (span, sup, mark, abbr, ...) whose
// text flows through. Built once; rules themselves are stateless.

import { blockRules, plainBlock } from './block-rules';
import { codeRules } from './code-rules';
import { inlineRules } from './inline-rules';
import { listRules } from './list-rules';
import { mathRules } from './math-rules';
import { tableRules } from './table-rules';
import { BLOCK_TAGS, DROPPED_TAGS } from './dom';
import type { Rule, RuleSet } from './walk';

const transparentInline: Rule = {
  filter: [],
  replacement: (content) => content,
};

/** Elements whose subtree is skipped (see dom.ts): one lookup in the same table. */
export const DROP: Rule = {
  filter: [],
  replacement: () => '',
};

function buildRuleSet(rules: readonly Rule[]): RuleSet {
  // One map answers every tag: dropped, ruled, or a plain block; anything else is inline.
  const byTag = new Map<string, Rule>();
  for (const tag of BLOCK_TAGS) byTag.set(tag, plainBlock);
  for (const rule of rules) {
    for (const tag of rule.filter) byTag.set(tag, rule);
  }
  for (const tag of DROPPED_TAGS) byTag.set(tag, DROP);
  return { byTag, defaultInline: transparentInline, drop: DROP };
}

export const RULES: RuleSet = buildRuleSet([...blockRules, ...listRules, ...tableRules, ...codeRules, ...mathRules, ...inlineRules]);
