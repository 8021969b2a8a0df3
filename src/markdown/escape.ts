// Escaping of literal text so that a CommonMark/GFM renderer shows it verbatim, and only
// where it would otherwise be misread: `foo_bar`, `a * b` or `[x]` stay as they are. One
// linear scan per text run, no backtracking regexes (text nodes can be megabytes long).

import { BREAK, SPACE, UNKNOWN } from './dom';

export interface EscapeSituation {
  /** The text starts a markdown line (block start or after a hard break). */
  atLineStart: boolean;
  /** Character before / after the text: a char, SPACE, BREAK or UNKNOWN (assume the worst). */
  before: string;
  after: string;
  /** Inside link text or image alt: every bracket must be escaped to keep the link intact. */
  inLinkText: boolean;
  /** Index to escape as a line-start marker, when known from text emitted before (else derived from `atLineStart`). */
  lineStartIndex?: number;
}

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCT = /[\p{P}\p{S}]/u;
const UNICODE_SPACE = /\s/u;
// What an unknown neighbour could be: whitespace, a letter, or punctuation.
const UNKNOWN_CANDIDATES = [' ', 'a', '.'];

function isSpace(c: string): boolean {
  return c === SPACE || c === BREAK || UNICODE_SPACE.test(c);
}

function isPunct(c: string): boolean {
  return UNICODE_PUNCT.test(c);
}

/** Whether a run of `*`, `_` or `~` between `before` and `after` can open or close emphasis. */
function isDelimiterRun(ch: string, before: string, after: string): boolean {
  const befores = before === UNKNOWN ? UNKNOWN_CANDIDATES : [before];
  const afters = after === UNKNOWN ? UNKNOWN_CANDIDATES : [after];
  for (const b of befores) {
    for (const a of afters) {
      const bSpace = isSpace(b);
      const aSpace = isSpace(a);
      const bPunct = !bSpace && isPunct(b);
      const aPunct = !aSpace && isPunct(a);
      const left = !aSpace && (!aPunct || bSpace || bPunct);
      const right = !bSpace && (!bPunct || aSpace || aPunct);
      // `_` is inert inside words (CommonMark rule for intraword underscores).
      const active = ch === '_' ? (left && (!right || bPunct)) || (right && (!left || aPunct)) : left || right;
      if (active) return true;
    }
  }
  return false;
}

/** Number of `~` runs of length one (GFM pairs strikethrough runs of equal length). */
function countLoneTildes(text: string): number {
  let count = 0;
  for (let i = text.indexOf('~'); i >= 0; ) {
    let end = i + 1;
    while (end < text.length && text.charCodeAt(end) === 126) end++;
    if (end - i === 1) count++;
    i = text.indexOf('~', end);
  }
  return count;
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `&` followed by something a renderer would decode as a character reference. */
function startsEntity(text: string, amp: number, after: string): boolean {
  let i = amp + 1;
  const end = Math.min(text.length, amp + 34);
  if (i < text.length && text.charCodeAt(i) === 35 /* # */) i++;
  const bodyStart = i;
  while (i < end && isAsciiAlnum(text.charCodeAt(i))) i++;
  if (i === text.length) return after === UNKNOWN; // may continue in the next inline node
  return i > bodyStart && text.charCodeAt(i) === 59 /* ; */;
}

/** Line-start constructs: headings, quotes, list items, thematic breaks, setext underlines, fences, reference definitions. Returns the index to backslash-escape, or -1. */
export function lineStartEscapeIndex(text: string): number {
  const c = text.charAt(0);
  if (c === '>' || c === '[') return 0;
  const next = text.charAt(1);
  const nextIsGap = next === '' || next === ' ' || next === '\t';
  if ((c === '-' || c === '+' || c === '*') && nextIsGap) return 0;
  if (c === '#') {
    let n = 1;
    while (n < text.length && text.charAt(n) === '#') n++;
    const after = text.charAt(n);
    return n <= 6 && (after === '' || after === ' ') ? 0 : -1;
  }
  if (c === '-' || c === '*' || c === '_' || c === '=' || c === '~') {
    // A line made of one repeated marker (spaces allowed) is a thematic break / setext
    // underline / fence; `~~~` opens a fence even with text after it.
    let i = 1;
    let count = 1;
    while (i < text.length && (text.charAt(i) === c || text.charAt(i) === ' ')) {
      if (text.charAt(i) === c) count++;
      i++;
    }
    if (c === '~') return count >= 3 && text.startsWith('~~~') ? 0 : -1;
    return i === text.length ? 0 : -1;
  }
  const code = text.charCodeAt(0);
  if (code >= 48 && code <= 57) {
    let i = 1;
    while (i < text.length && i < 10 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    const mark = text.charAt(i);
    const gap = text.charAt(i + 1);
    if (i <= 9 && (mark === '.' || mark === ')') && (gap === '' || gap === ' ')) return i;
  }
  return -1;
}

// Characters the scan below may have to escape: it jumps from one to the next with a native
// search, which stays fast where this code runs cold (a fresh isolated world per page).
const SPECIAL = /[\\`*_~[\]<&!]/g;

/** Escapes collapsed inline text (no newlines) for use as markdown. */
export function escapeText(text: string, s: EscapeSituation): string {
  let out: string[] | null = null;
  let flushed = 0;
  const lineStartIndex = s.lineStartIndex ?? (s.atLineStart ? lineStartEscapeIndex(text) : -1);
  const len = text.length;
  let loneTildes = -1;
  let i = 0;
  while (i < len) {
    if (i !== lineStartIndex) {
      SPECIAL.lastIndex = i;
      const found = SPECIAL.exec(text);
      const next = found === null ? len : found.index;
      // The line-start marker, when it lies ahead, is visited even if it is no special character.
      i = lineStartIndex > i && lineStartIndex < next ? lineStartIndex : next;
      if (i >= len) break;
    }
    const c = text.charAt(i);
    let needsEscape = i === lineStartIndex;
    let runEnd = i + 1;
    switch (c) {
      case '\\':
        // Always at the end: a backslash before a line end would read as a hard break.
        needsEscape = i + 1 === len || ASCII_PUNCT.test(text.charAt(i + 1));
        break;
      case '`':
        needsEscape = true;
        break;
      case '*':
      case '_':
      case '~': {
        while (runEnd < len && text.charAt(runEnd) === c) runEnd++;
        const before = i > 0 ? text.charAt(i - 1) : s.atLineStart ? SPACE : s.before;
        const after = runEnd < len ? text.charAt(runEnd) : s.after;
        // A lone `~` only strikes through with another lone `~`: left as is when the text has none.
        if (c === '~' && loneTildes < 0) loneTildes = countLoneTildes(text);
        const loneTilde = c === '~' && runEnd - i === 1 && loneTildes < 2;
        needsEscape = needsEscape || (!loneTilde && isDelimiterRun(c, before, after));
        break;
      }
      case '[':
        needsEscape = needsEscape || s.inLinkText;
        break;
      case ']': {
        const next = i + 1 < len ? text.charAt(i + 1) : s.after;
        needsEscape = s.inLinkText || next === '(' || next === UNKNOWN;
        break;
      }
      case '<': {
        const next = i + 1 < len ? text.charAt(i + 1) : s.after;
        needsEscape = next === UNKNOWN || /[A-Za-z/!?]/.test(next);
        break;
      }
      case '&':
        needsEscape = startsEntity(text, i, s.after);
        break;
      case '!':
        // `!` right before a link would make it an image.
        needsEscape = needsEscape || (i + 1 === len && s.after === '[');
        break;
    }
    if (needsEscape) {
      if (out === null) out = [];
      if (i > flushed) out.push(text.slice(flushed, i));
      for (let k = i; k < runEnd; k++) out.push('\\', c);
      flushed = runEnd;
    }
    i = runEnd;
  }
  if (out === null) return text;
  if (flushed < len) out.push(text.slice(flushed));
  return out.join('');
}
