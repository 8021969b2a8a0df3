// The one generic tree walk: iterative (an explicit stack, so 10,000-deep documents cannot
// overflow the call stack), post-order, one visit per node. Rules are data (rules.ts); the walk
// only decides which rule applies, keeps the text state right at boundaries, and joins output.

import type { Context } from './context';
import { charAfter, isElement, isHidden, isText, SPACE, tagOf } from './dom';
import type { DomElement, DomNode } from './dom';
import { joinParts } from './join';
import { asBlock } from './lines';
import { convertText } from './text';

export interface Rule {
  /** Lower-case tag names the rule handles. */
  readonly filter: readonly string[];
  /** Block boundary: the next text starts a line, and whitespace around it is insignificant. */
  readonly block?: boolean;
  /** A hard line break: the next text starts a line, but the paragraph goes on. */
  readonly lineBreak?: boolean;
  /**
   * The replacement is a block's body, and the walk sets it apart by blank lines of its own: the
   * parent's join then takes the body as it is, where stripping separators off a block's output
   * copies it. Output starting with a newline already carries its separators and passes as it is.
   */
  readonly separated?: boolean;
  /** Converts the element from the DOM itself; its children are not walked. */
  readonly leaf?: boolean;
  /** Evaluated before `enter`: children's blocks may be joined by single newlines where markdown allows (tight list items). */
  tightJoin?(el: DomElement, ctx: Context): boolean;
  /** Called before the children are walked (to open per-element state in the context). */
  enter?(el: DomElement, ctx: Context): void;
  /** Markdown for the element, given its children's joined markdown. */
  replacement(content: string, el: DomElement, ctx: Context): string;
}

export interface RuleSet {
  /** Every known tag: its rule, the plain block rule for other block tags, or `drop`. */
  readonly byTag: ReadonlyMap<string, Rule>;
  /** For tags not in byTag: inline elements without markup of their own. */
  readonly defaultInline: Rule;
  /** Marks elements whose subtree is skipped. */
  readonly drop: Rule;
}

interface Frame {
  readonly el: DomElement;
  readonly rule: Rule;
  /** The children's markdown: `one` until a second piece arrives, then `parts` (fewer allocations). */
  one: string | null;
  parts: string[] | null;
  readonly tight: boolean;
  next: DomNode | null;
}

function pushPart(frame: Frame, out: string): void {
  if (frame.parts !== null) frame.parts.push(out);
  else if (frame.one === null) frame.one = out;
  else frame.parts = [frame.one, out];
}

const BLANK_LINE = '\n\n';

function needsSeparators(rule: Rule, out: string): boolean {
  return rule.separated === true && out !== '' && out.charCodeAt(0) !== 10;
}

/** Adds an element's output to its parent's pieces; a separated block's blank lines go in as pieces of their own. */
function pushOutput(parent: Frame, rule: Rule, out: string): void {
  if (out === '') return;
  if (!needsSeparators(rule, out)) {
    pushPart(parent, out);
    return;
  }
  pushPart(parent, BLANK_LINE);
  pushPart(parent, out);
  pushPart(parent, BLANK_LINE);
}

function frameContent(frame: Frame): string {
  if (frame.parts !== null) return joinParts(frame.parts, frame.tight);
  return frame.one ?? '';
}

function ruleFor(tag: string, rules: RuleSet): Rule {
  return rules.byTag.get(tag) ?? rules.defaultInline;
}

/** Text state after an element has produced `out` from `content`. */
function settle(rule: Rule, content: string, out: string, ctx: Context): void {
  if (out !== content) ctx.linePrefix = '';
  if (rule.block || rule.lineBreak || out.endsWith('\n\n')) {
    // (An inline element whose output ends a block, e.g. a link distributed over blocks.)
    ctx.atLineStart = true;
    ctx.lastChar = SPACE;
  } else if (out !== content && out !== '') {
    // Markup (a delimiter, a link's `)`) now ends the output.
    ctx.atLineStart = false;
    ctx.lastChar = out.charAt(out.length - 1);
  }
}

/** Converts the subtree of `root` (itself included) to markdown. */
export function walk(root: DomElement, rules: RuleSet, ctx: Context): string {
  const rootRule = ruleFor(tagOf(root), rules);
  rootRule.enter?.(root, ctx);
  const stack: Frame[] = [{ el: root, rule: rootRule, one: null, parts: null, tight: false, next: root.firstChild }];
  let result = '';
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const child = frame.next;
    if (child === null) {
      stack.pop();
      const content = frameContent(frame);
      const out = frame.rule.replacement(content, frame.el, ctx);
      settle(frame.rule, content, out, ctx);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) pushOutput(parent, frame.rule, out);
      else result = needsSeparators(frame.rule, out) ? asBlock(out) : out;
      continue;
    }
    frame.next = child.nextSibling;
    if (isText(child)) {
      frame.next = convertTextRun(child, frame, ctx);
      continue;
    }
    if (!isElement(child)) continue;
    const tag = tagOf(child);
    const rule = ruleFor(tag, rules);
    if (rule === rules.drop || isHidden(child)) continue;
    if (rule.block) {
      ctx.atLineStart = true;
      ctx.lastChar = SPACE;
      ctx.linePrefix = '';
    }
    const tight = rule.tightJoin?.(child, ctx) === true;
    rule.enter?.(child, ctx);
    if (rule.leaf) {
      const out = rule.replacement('', child, ctx);
      settle(rule, '', out, ctx);
      pushOutput(frame, rule, out);
      continue;
    }
    stack.push({ el: child, rule, one: null, parts: null, tight, next: child.firstChild });
  }
  return result;
}

/**
 * linkedom splits text at every character reference ("a &amp; b" is three nodes), and
 * comments split it too; escaping needs the whole run, so adjacent text nodes are merged.
 * Returns the node after the run.
 */
function convertTextRun(first: DomNode & { data: string }, frame: Frame, ctx: Context): DomNode | null {
  let raw = first.data;
  let pieces: string[] | null = null;
  let node = first.nextSibling;
  while (node !== null && (isText(node) || node.nodeType === 8) /* comment */) {
    if (isText(node)) {
      pieces ??= [raw];
      pieces.push(node.data);
    }
    node = node.nextSibling;
  }
  if (pieces !== null) raw = pieces.join('');
  const out = convertText(raw, charAfter(node, frame.el), ctx);
  if (out !== '') pushPart(frame, out);
  return node;
}
