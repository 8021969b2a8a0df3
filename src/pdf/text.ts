// Text of lines and segments as inline pieces (text with the link it belongs to, if any), and
// the joining of lines into one paragraph: hyphenated words rejoined, other breaks a space.

import type { Inline, Line, Run } from './model';
import { composeAccents, needsSpace, segmentText } from './segments';

function push(out: Inline[], text: string, href: string | null): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last && last.href === href) last.text += text;
  else out.push({ text, href });
}

export function lineInlines(line: Line): Inline[] {
  const out: Inline[] = [];
  let prev: Run | null = null;
  for (const seg of line.segments) {
    for (const run of seg.runs) {
      // Segments are always apart; runs of one segment only when there is room for a space.
      if (prev && (seg.runs[0] === run || needsSpace(prev, run)))
        push(out, ' ', prev.href !== null && prev.href === run.href ? run.href : null);
      push(out, run.text, run.href);
      prev = run;
    }
  }
  return tidy(out);
}

/** Whitespace collapsed, the ends trimmed. */
export function tidy(content: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const piece of content) {
    const text = composeAccents(piece.text.replace(/\s+/g, ' '));
    if (piece.href === null) {
      push(out, text, null);
      continue;
    }
    // Spaces at the ends of a link belong to the text around it.
    const core = text.trim();
    if (text.startsWith(' ')) push(out, ' ', null);
    push(out, core, piece.href);
    if (text.endsWith(' ') && core !== '') push(out, ' ', null);
  }
  for (let i = 1; i < out.length; i++) {
    if (out[i - 1]!.text.endsWith(' ') && out[i]!.text.startsWith(' ')) out[i]!.text = out[i]!.text.slice(1);
  }
  const first = out[0];
  if (first) first.text = first.text.replace(/^ +/, '');
  const last = out[out.length - 1];
  if (last) last.text = last.text.replace(/ +$/, '');
  return out.filter((p) => p.text !== '');
}

export function plain(content: readonly Inline[]): string {
  return content.map((p) => p.text).join('');
}

export function lineText(line: Line): string {
  return line.segments.map(segmentText).join(' ');
}

// Hyphens that can end a line after a letter: U+002D HYPHEN-MINUS, U+2010 HYPHEN (what Chromium's
// own print writes), U+2011 NON-BREAKING HYPHEN, and U+00AD SOFT HYPHEN, which is only ever a break
// marker. Dashes (en, em) are never a word's break.
const HYPHEN_AT_END = /\p{L}([-\u2010\u2011\u00ad])$/u;
const SOFT_HYPHEN = '\u00ad';
const NON_BREAKING_HYPHEN = '\u2011';
const HYPHEN_INSIDE = /[-\u2010\u2011]/u;
const STARTS_LOWER = /^\p{Ll}/u;

/**
 * How a line that ends in `hyphen` after a letter joins the next: `drop` the hyphen (one word broken
 * at the line's end), or `keep` it with no space (a compound's own hyphen). A soft hyphen is always
 * dropped. Another is dropped when the next line carries on in lower case and neither half of the
 * word holds a hyphen of its own ("state-" + "of-the-art" is a compound; "hyphen-" + "ated" is
 * not); a following capital or digit ("pre-" + "Columbian", "COVID-" + "19") keeps it. A
 * non-breaking hyphen is never a break.
 */
export function hyphenJoin(before: string, hyphen: string, after: string): 'drop' | 'keep' {
  if (hyphen === SOFT_HYPHEN) return 'drop';
  if (hyphen === NON_BREAKING_HYPHEN || !STARTS_LOWER.test(after)) return 'keep';
  const wordBefore = before.slice(before.lastIndexOf(' ') + 1);
  const space = after.indexOf(' ');
  const wordAfter = space < 0 ? after : after.slice(0, space);
  return HYPHEN_INSIDE.test(wordBefore) || HYPHEN_INSIDE.test(wordAfter) ? 'keep' : 'drop';
}

/**
 * Appends a following line's content to a paragraph: a hyphen that ends the line inside a word
 * joins the two halves (see `hyphenJoin`), any other break is a space (none after an em dash or a
 * slash). Pieces stay line-sized (see `merged`), so looking at the paragraph's end stays cheap
 * however long it grows.
 */
export function appendLine(content: Inline[], next: readonly Inline[]): void {
  const last = content[content.length - 1];
  const first = next[0];
  if (!last || !first) {
    content.push(...next.map((p) => ({ ...p })));
    return;
  }
  const hyphen = HYPHEN_AT_END.exec(last.text)?.[1];
  if (hyphen !== undefined) {
    if (hyphenJoin(last.text.slice(0, -1), hyphen, first.text) === 'drop') last.text = last.text.slice(0, -1);
  } else if (!last.text.endsWith('\u2014') && !last.text.endsWith('/')) {
    content.push({ text: ' ', href: last.href !== null && last.href === first.href ? last.href : null });
  }
  for (const p of next) content.push({ ...p });
}

/** Neighbouring pieces with the same link (or none) joined into one. */
export function merged(content: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  let parts: string[] = [];
  let href: string | null = null;
  const flush = () => {
    if (parts.length > 0) out.push({ text: parts.join(''), href });
    parts = [];
  };
  for (const p of content) {
    if (parts.length > 0 && p.href !== href) flush();
    href = p.href;
    parts.push(p.text);
  }
  flush();
  return out;
}
