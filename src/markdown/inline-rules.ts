// Rules for inline markup: emphasis, strong, strikethrough, links and images. Delimiters are
// only emitted where CommonMark's flanking rules let them parse; otherwise the text is kept
// without them, so no stray `*` or `](` leaks into the rendered page.

import { MAX_MARKUP_DEPTH } from './context';
import type { Context } from './context';
import { BREAK, charAfter, isBlockTag, isElement, isText, nextInSubtree, SPACE, tagOf, UNKNOWN } from './dom';
import type { DomElement, DomNode } from './dom';
import { escapeText } from './escape';
import { isDataUrl, writtenImageSource } from './image-source';
import { isBlank, trimEndBlock, trimStartBlock } from './join';
import { asBlock, blockBody, flattenToLine } from './lines';
import { linkName, MAX_ICON_SCAN } from './link-name';
import { collapseWhitespace } from './text';
import { formatDestination, formatTitle, isScriptUrl, resolveUrl } from './urls';
import type { Rule } from './walk';

const PUNCT = /[\p{P}\p{S}]/u;
const SPACE_CHAR = /\s/u;

function isSpaceChar(c: string): boolean {
  return c === SPACE || c === BREAK || SPACE_CHAR.test(c);
}

function isPunctChar(c: string): boolean {
  return c !== UNKNOWN && c !== SPACE && c !== BREAK && PUNCT.test(c);
}

/** Whether `delim` can open before `first` (preceded by `before`) and close after `last` (followed by `after`). */
function delimitersParse(first: string, last: string, before: string, after: string): boolean {
  // Unknown neighbours are assumed to be letters: the case in which punctuation fails.
  if (isSpaceChar(first) || isSpaceChar(last)) return false;
  const opens = !PUNCT.test(first) || isSpaceChar(before) || isPunctChar(before);
  const closes = !PUNCT.test(last) || isSpaceChar(after) || isPunctChar(after);
  return opens && closes;
}

/** `_` runs also need a space or punctuation outside (CommonMark's intraword rule). */
function underscoreParses(first: string, last: string, before: string, after: string): boolean {
  if (first === '_' || last === '_' || before === '_' || after === '_') return false;
  const outsideOpen = isSpaceChar(before) || isPunctChar(before);
  const outsideClose = isSpaceChar(after) || isPunctChar(after);
  return outsideOpen && outsideClose && delimitersParse(first, last, before, after);
}

/** Index of the first character after a run of `ch` starting at `i` (no escapes counted). */
function skipRun(s: string, i: number, ch: number): number {
  let j = i;
  while (j < s.length && s.charCodeAt(j) === ch) j++;
  return j;
}

function skipRunBack(s: string, end: number, ch: number): number {
  let j = end;
  while (j > 0 && s.charCodeAt(j - 1) === ch) j--;
  return j;
}

/**
 * The character after an inline element's end: its next sibling's first character, or, at the
 * end of a transparent inline parent, what follows that parent (up to a few levels); a link
 * parent closes with `]`.
 */
export function charAfterInline(el: DomElement, ctx: Context): string {
  let node: DomElement = el;
  for (let depth = 0; depth < 8; depth++) {
    const next = node.nextSibling;
    const parent = node.parentNode;
    if (next !== null || !isElement(parent)) return charAfter(next, parent);
    const tag = tagOf(parent);
    if (isBlockTag(tag)) return SPACE;
    if (tag === 'a') return ctx.links[ctx.links.length - 1] != null ? ']' : UNKNOWN;
    if (!TRANSPARENT_INLINE.has(tag)) return UNKNOWN;
    node = parent;
  }
  return UNKNOWN;
}

// Inline elements that emit no markup of their own around their content.
const TRANSPARENT_INLINE = new Set([
  'span',
  'font',
  'small',
  'big',
  'abbr',
  'acronym',
  'u',
  'ins',
  'q',
  'label',
  'time',
  'data',
  'bdi',
  'bdo',
  'nobr',
  'wbr',
]);

/**
 * Wraps content in emphasis delimiters if they will parse there. `*` is preferred; next to
 * another `*` (nested or adjacent emphasis) the `_` form is used where it can parse, so runs
 * do not merge; otherwise merged `*` runs are checked as a whole.
 */
function wrap(content: string, delim: string, before: string, el: DomElement, ctx: Context): string {
  if (isBlank(content) || content.includes('\n\n')) return content;
  // Edge spaces and hard breaks go outside: a delimiter next to either never parses.
  const headless = trimStartBlock(content);
  const core = trimEndBlock(headless);
  if (core === '') return content;
  const start = content.length - headless.length;
  const end = start + core.length;
  const left = start > 0 ? SPACE : before;
  const right = end < content.length ? SPACE : charAfterInline(el, ctx);
  const marked = delimit(core, delim, left, right);
  return marked === null ? content : `${content.slice(0, start)}${marked}${content.slice(end)}`;
}

/**
 * `core` (no edge spaces) between emphasis delimiters of the kind of `delim` (`*`, `**`, `~~`),
 * given the characters around it; null when no form of the delimiters would parse there.
 */
export function delimit(core: string, delim: string, left: string, rightChar: string): string | null {
  // A `*`, `_` or `~` in the text that follows is escaped there (it follows a delimiter).
  const right = rightChar === '*' || rightChar === '_' || rightChar === '~' ? '\\' : rightChar;
  const first = core.charAt(0);
  const last = core.charAt(core.length - 1);
  const ch = delim.charAt(0);
  let mark = delim;
  if (ch === '*') {
    const touchesStar = left === '*' || right === '*' || first === '*' || last === '*';
    if (touchesStar && underscoreParses(first, last, left, right)) {
      mark = delim.replace(/\*/g, '_');
    } else if (touchesStar) {
      // The runs merge with neighbouring `*` runs: what counts is the text beyond them.
      if (left === '*' || right === '*') return null;
      const f = core.charAt(skipRun(core, 0, 42));
      const l = core.charAt(skipRunBack(core, core.length, 42) - 1);
      if (f === '' || l === '' || !delimitersParse(f, l, left, right)) return null;
      mark = delim;
    } else if (!delimitersParse(first, last, left, right)) {
      return null;
    }
  } else {
    if (left === ch || right === ch || first === ch || last === ch) return null;
    if (!delimitersParse(first, last, left, right)) return null;
  }
  return `${mark}${core}${mark}`;
}

type DepthKey = 'emDepth' | 'strongDepth' | 'strikeDepth';

/** An emphasis-like rule; nested occurrences of the same kind alternate `*` and `_` so both parse. */
function emphasisRule(filter: readonly string[], delim: string, depth: DepthKey): Rule {
  return {
    filter,
    enter(_el, ctx) {
      ctx[depth]++;
      ctx.markupDepth++;
      ctx.emphasisBefore.push(ctx.lastChar);
    },
    replacement(content, el, ctx) {
      ctx[depth]--;
      ctx.markupDepth--;
      const before = ctx.emphasisBefore.pop() ?? UNKNOWN;
      if (ctx.markupDepth >= MAX_MARKUP_DEPTH) return content;
      // Nested strikethrough adds nothing visible; `~~~~` would not parse.
      if (depth === 'strikeDepth' && ctx[depth] > 0) return content;
      return wrap(content, delim, before, el, ctx);
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

/** Only images marked decorative (`alt=""`) and no text: what a reader reads of the link is nothing. */
function isDecorativeOnly(el: DomElement): boolean {
  let images = 0;
  let steps = 0;
  for (let node = el.firstChild; node !== null; node = nextInSubtree(node, el)) {
    if (++steps > MAX_ICON_SCAN) return false;
    if (isText(node) && node.data.trim() !== '') return false;
    if (isElement(node) && tagOf(node) === 'img') {
      if ((node.getAttribute('alt') ?? 'x').trim() !== '') return false;
      images++;
    }
  }
  return images > 0;
}

const MAX_DISTRIBUTED_BLOCKS = 8;

/** A block that is only images (no text of its own). */
function isImageOnly(block: string): boolean {
  return block.startsWith('![') && block.endsWith(')') && !block.includes('\n');
}

/** The level of a one-line ATX heading block (`## Title`), 0 for any other block. */
function headingLevel(block: string): number {
  let hashes = 0;
  while (hashes < block.length && block.charCodeAt(hashes) === 35) hashes++;
  return hashes > 0 && hashes <= 6 && block.charCodeAt(hashes) === 32 && !block.includes('\n') ? hashes : 0;
}

/**
 * A link around block content cannot stay one markdown link. When it wraps one text block
 * (plus images: a card with a thumbnail and a heading), or a heading among others (a teaser:
 * kicker, heading, summary), each block becomes its own link to the same destination and a
 * heading keeps its level (`## [Title](url)`). '' when it wraps several text blocks and no
 * heading, or a code fence: it is then kept as one link on one line, so the anchor keeps its
 * whole text.
 */
function distributeLink(body: string, target: string): string {
  if (body.includes('```') || body.includes('~~~')) return '';
  const blocks = body.split('\n\n');
  // Each block repeats the destination: a bounded number keeps the output linear in the input.
  if (blocks.length > MAX_DISTRIBUTED_BLOCKS) return '';
  let textBlocks = 0;
  let headings = 0;
  for (const block of blocks) {
    if (isImageOnly(block)) continue;
    textBlocks++;
    if (headingLevel(block) > 0) headings++;
  }
  if (textBlocks > 1 && headings === 0) return '';
  const out: string[] = [];
  for (const block of blocks) {
    const level = headingLevel(block);
    if (level > 0) {
      out.push(`${block.slice(0, level)} [${block.slice(level + 1)}]${target}`);
      continue;
    }
    const text = flattenToLine(block);
    if (text !== '') out.push(`[${text}]${target}`);
  }
  return out.join('\n\n');
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
    const title = formatTitle(el.getAttribute('title'));
    const target = `(${formatDestination(destination)}${title})`;
    const body = blockBody(content);
    if (body.includes('\n\n') || body.charCodeAt(0) === 35 /* # heading */) {
      const distributed = distributeLink(body, target);
      if (distributed !== '') return asBlock(distributed);
    }
    const text = flattenToLine(content, true);
    // Images marked decorative (alt="") are a link's only content: the link's name is written
    // beside them, so the link reads as what it does. The images stay: a reader sees them, and
    // alt="" is as often an article's figure whose caption says the rest (docs/reader-view.md).
    if (text !== '' && isDecorativeOnly(el)) {
      const name = linkName(el);
      if (name !== '') return `[${text} ${escapeText(name, { atLineStart: false, before: ' ', after: ']', inLinkText: true })}]${target}`;
    }
    // A space at the edge of the link text stays beside the link: `<a>reported </a>WeWork` must
    // not read "[reported](…)WeWork" (the text around already left out its own space there).
    if (text !== '') {
      const lead = content.charCodeAt(0) === 32 ? ' ' : '';
      const trail = content.charCodeAt(content.length - 1) === 32 ? ' ' : '';
      return `${lead}[${text}]${target}${trail}`;
    }
    const name = linkName(el);
    if (name !== '') return `[${escapeText(name, { atLineStart: false, before: '[', after: ']', inLinkText: true })}]${target}`;
    // A link with nothing to read (an icon without a name, an empty anchor such as a `#top`
    // target) is left out, never `[](url)`; a space in it stays, so the words around it do not
    // run together.
    return content.includes(' ') ? ' ' : '';
  },
};

export const image: Rule = {
  filter: ['img'],
  leaf: true,
  replacement(_content, el, ctx) {
    const alt = collapseWhitespace(el.getAttribute('alt') ?? '').trim();
    const src = writtenImageSource(el);
    if (src === '' || isDataUrl(src)) {
      // No fetchable image (or an inline blob that would swamp the text): keep its alt text.
      if (alt === '') return '';
      return escapeText(alt, { atLineStart: ctx.atLineStart, before: ctx.lastChar, after: UNKNOWN, inLinkText: ctx.linkDepth > 0 });
    }
    const altText = escapeText(alt, { atLineStart: false, before: '[', after: ']', inLinkText: true });
    const destination = formatDestination(resolveUrl(src, ctx.baseUrl));
    return `![${altText}](${destination}${formatTitle(el.getAttribute('title'))})`;
  },
};

/**
 * `<sup>`, `<sub>` and `<mark>` have no markdown syntax; GitHub and most renderers accept
 * these tags inline, and `x2` for `x<sup>2</sup>` would change the meaning. A superscript
 * that holds only a link (a footnote or citation marker such as `[1]`) stays a plain link.
 */
function inlineTagRule(tag: string): Rule {
  return {
    filter: [tag],
    enter(_el, ctx) {
      ctx.markupDepth++;
    },
    replacement(content, el, ctx) {
      ctx.markupDepth--;
      if (ctx.markupDepth >= MAX_MARKUP_DEPTH) return content;
      const core = content.trim();
      if (core === '' || core.includes('\n')) return content;
      if (tag === 'sup' && isOnlyLink(el)) return content;
      const start = content.length - content.trimStart().length;
      return `${content.slice(0, start)}<${tag}>${core}</${tag}>${content.slice(start + core.length)}`;
    },
  };
}

function isOnlyLink(el: DomElement): boolean {
  let link = false;
  for (let c = el.firstChild; c !== null; c = c.nextSibling) {
    if (isElement(c)) {
      if (link || tagOf(c) !== 'a') return false;
      link = true;
    } else if (c.nodeType === 3 && (c as DomNode & { data: string }).data.trim() !== '') {
      return false;
    }
  }
  return link;
}

export const inlineRules: readonly Rule[] = [
  emphasis,
  strong,
  strikethrough,
  link,
  image,
  inlineTagRule('sup'),
  inlineTagRule('sub'),
  inlineTagRule('mark'),
];
