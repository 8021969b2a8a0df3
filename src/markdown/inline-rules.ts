// Rules for inline markup: emphasis, strong, strikethrough, links and images. Delimiters are
// only emitted where CommonMark's flanking rules let them parse; otherwise the text is kept
// without them, so no stray `*` or `](` leaks into the rendered page.

import type { Context } from './context';
import { BREAK, charAfter, SPACE, UNKNOWN } from './dom';
import type { DomElement } from './dom';
import { escapeText } from './escape';
import { isBlank, trimEndBlock, trimStartBlock } from './join';
import { flattenToLine } from './lines';
import { collapseWhitespace } from './text';
import { formatDestination, formatTitle, imageSource, isScriptUrl, resolveUrl } from './urls';
import type { Rule } from './walk';

const PUNCT = /[\p{P}\p{S}]/u;
const SPACE_CHAR = /\s/u;

function isSpaceChar(c: string): boolean {
  return c === SPACE || c === BREAK || SPACE_CHAR.test(c);
}

/** Whether `delim` can open before `first` (preceded by `before`) and close after `last` (followed by `after`). */
function delimitersParse(first: string, last: string, before: string, after: string): boolean {
  // Unknown neighbours are assumed to be letters: the case in which punctuation fails.
  const opens = !PUNCT.test(first) || isSpaceChar(before) || (before !== UNKNOWN && PUNCT.test(before));
  const closes = !PUNCT.test(last) || isSpaceChar(after) || (after !== UNKNOWN && PUNCT.test(after));
  return opens && closes;
}

/**
 * Wraps content in `delim` if the delimiters will parse there. Right after another `*` run the `_` form is used, as `**a****b**` would not parse.
 */
function wrap(content: string, delim: string, before: string, el: DomElement): string {
  if (isBlank(content) || content.includes('\n\n')) return content;
  // Edge spaces and hard breaks go outside: a delimiter next to either never parses.
  const headless = trimStartBlock(content);
  const core = trimEndBlock(headless);
  const start = content.length - headless.length;
  const end = start + core.length;
  const left = start > 0 ? SPACE : before;
  const right = end < content.length ? SPACE : charAfter(el.nextSibling, el.parentNode);
  const first = core.charAt(0);
  const last = core.charAt(core.length - 1);
  let mark = delim;
  if (delim.charAt(0) === '*' && left === '*') {
    mark = delim.replace(/\*/g, '_');
    // `_` cannot close before a letter (intraword rule).
    if (!isSpaceChar(right) && !(right !== UNKNOWN && PUNCT.test(right))) return content;
  }
  if (!delimitersParse(first, last, left, right)) return content;
  return `${content.slice(0, start)}${mark}${core}${mark}${content.slice(end)}`;
}

type DepthKey = 'emDepth' | 'strongDepth' | 'strikeDepth';

/** An emphasis-like rule; nested occurrences of the same kind add nothing visible and emit no delimiters. */
function emphasisRule(filter: readonly string[], delim: string, depth: DepthKey): Rule {
  return {
    filter,
    enter(_el, ctx) {
      ctx[depth]++;
      ctx.emphasisBefore.push(ctx.lastChar);
    },
    replacement(content, el, ctx) {
      ctx[depth]--;
      const before = ctx.emphasisBefore.pop() ?? UNKNOWN;
      return ctx[depth] > 0 ? content : wrap(content, delim, before, el);
    },
  };
}

export const emphasis = emphasisRule(['em', 'i', 'cite', 'dfn', 'var'], '*', 'emDepth');
export const strong = emphasisRule(['strong', 'b'], '**', 'strongDepth');
export const strikethrough = emphasisRule(['del', 's', 'strike'], '~~', 'strikeDepth');

function linkDestination(el: DomElement, ctx: Context): string | null {
  const href = el.getAttribute('href');
  if (href === null || ctx.linkDepth > 0) return null; // links cannot nest in markdown
  const url = resolveUrl(href, ctx.baseUrl);
  return isScriptUrl(url) ? null : url;
}

export const link: Rule = {
  filter: ['a'],
  enter(el, ctx) {
    const destination = linkDestination(el, ctx);
    ctx.links.push(destination);
    if (destination !== null) ctx.linkDepth++;
  },
  replacement(content, el, ctx) {
    const destination = ctx.links.pop() ?? null;
    if (destination === null) return content;
    ctx.linkDepth--;
    const text = flattenToLine(content);
    if (text === '') return content;
    return `[${text}](${formatDestination(destination)}${formatTitle(el.getAttribute('title'))})`;
  },
};

export const image: Rule = {
  filter: ['img'],
  leaf: true,
  replacement(_content, el, ctx) {
    const alt = collapseWhitespace(el.getAttribute('alt') ?? '').trim();
    const src = imageSource(el);
    if (src === '' || src.toLowerCase().startsWith('data:')) {
      // No fetchable image (or an inline blob that would swamp the text): keep its alt text.
      if (alt === '') return '';
      return escapeText(alt, { atLineStart: ctx.atLineStart, before: ctx.lastChar, after: UNKNOWN, inLinkText: ctx.linkDepth > 0 });
    }
    const altText = escapeText(alt, { atLineStart: false, before: '[', after: ']', inLinkText: true });
    const destination = formatDestination(resolveUrl(src, ctx.baseUrl));
    return `![${altText}](${destination}${formatTitle(el.getAttribute('title'))})`;
  },
};

export const inlineRules: readonly Rule[] = [emphasis, strong, strikethrough, link, image];
