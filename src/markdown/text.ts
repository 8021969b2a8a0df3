// Text nodes: browser-style whitespace collapsing across inline boundaries, then escaping.
// The context carries what the previous text ended with, so a space is dropped at a line
// start or after another space, exactly as a browser's inline layout does.

import type { Context } from './context';
import { SPACE } from './dom';
import { escapeText, lineStartEscapeIndex } from './escape';

// HTML's ASCII whitespace only: U+00A0 and other Unicode spaces are content.
const COLLAPSIBLE = /[ \t\n\r\f]+/g;

const DOUBLE_SPACE = / {2}/;

/**
 * Whether collapsing would change the text. Single-character searches are native memchr-speed
 * scans; a space pair is looked for by a regex, faster than a substring search that stops at every
 * space of the text (measured on megabyte text runs).
 */
function hasCollapsible(text: string): boolean {
  return text.includes('\n') || text.includes('\t') || text.includes('\r') || text.includes('\f') || DOUBLE_SPACE.test(text);
}

export function collapseWhitespace(text: string): string {
  return hasCollapsible(text) ? text.replace(COLLAPSIBLE, ' ') : text;
}

function isSpaceLike(c: string): boolean {
  return c === SPACE || c === '\n' || c === '\t';
}

/** Converts one run of adjacent text nodes; `after` is the character that follows it. */
export function convertText(raw: string, after: string, ctx: Context): string {
  let text = collapseWhitespace(raw);
  if (text.charCodeAt(0) === 32 && (ctx.atLineStart || isSpaceLike(ctx.lastChar))) text = text.slice(1);
  if (text === '') return '';
  // Digits alone at a line start ("1" in `<span>1</span>. text`) and the `.`/`)` after them
  // in the next text would form an ordered-list marker: the line start is judged on both.
  let lineStartIndex: number | undefined;
  if (!ctx.atLineStart && ctx.linePrefix !== '') {
    const index = lineStartEscapeIndex(ctx.linePrefix + text) - ctx.linePrefix.length;
    lineStartIndex = index >= 0 ? index : -1;
  }
  const escaped = escapeText(text, {
    atLineStart: ctx.atLineStart,
    before: ctx.lastChar,
    after,
    inLinkText: ctx.linkDepth > 0,
    lineStartIndex,
  });
  const prefix = ctx.atLineStart ? text : ctx.linePrefix === '' ? '' : ctx.linePrefix + text;
  ctx.linePrefix = prefix.length <= 9 && isDigits(prefix) ? prefix : '';
  const last = text.charAt(text.length - 1);
  // An escaped last character is literal: what precedes the next markup is a backslash
  // escape, never a delimiter run that the next delimiter could merge with.
  ctx.lastChar = last === ' ' ? SPACE : escaped.length > text.length && escaped.charCodeAt(escaped.length - 2) === 92 ? '\\' : last;
  ctx.atLineStart = false;
  return escaped;
}

function isDigits(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
