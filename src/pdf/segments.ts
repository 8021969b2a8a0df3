// Runs → segments: runs on one baseline are joined left to right; a horizontal gap wider than
// about a character's height starts a new segment (a column gutter or a table cell boundary).

import { oneLine } from '../shared/one-line';
import type { Run, Segment } from './model';

/** Gap (in font sizes) that separates two segments on one baseline. */
const SEGMENT_GAP = 1.0;
/** Gap (in font sizes) above which two runs are separate words. */
const WORD_GAP = 0.15;

/** Rows of runs: runs sharing a baseline; then smaller runs raised or lowered within a row's
 * height (superscripts, subscripts) join it, and a drop cap joins the first line it heads. */
function rows(runs: readonly Run[]): Run[][] {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: { y: number; size: number; runs: Run[] }[] = [];
  for (const run of sorted) {
    let row: (typeof out)[number] | undefined;
    for (let i = out.length - 1; i >= 0 && i >= out.length - 4; i--) {
      const r = out[i]!;
      // The same baseline, or nearly with a similar size: a superscript beside another column's
      // line must not take that line over.
      const dy = Math.abs(r.y - run.y);
      const ratio = Math.min(r.size, run.size) / Math.max(r.size, run.size);
      // (A drop cap, far larger, is placed below.)
      if ((ratio >= 0.55 && dy <= 0.12 * Math.min(r.size, run.size)) || (ratio >= 0.85 && dy <= 0.3 * Math.min(r.size, run.size))) {
        row = r;
        break;
      }
    }
    if (row) {
      row.runs.push(run);
      row.size = Math.max(row.size, run.size);
    } else out.push({ y: run.y, size: run.size, runs: [run] });
  }
  // A drop cap: a row of one large letter; it belongs to the highest row to its right that it
  // reaches, placed just before that row's first word.
  for (const r of out) {
    const cap = r.runs[0];
    if (r.runs.length !== 1 || !cap || cap.text.trim().length !== 1) continue;
    const capTop = cap.y - cap.size * 0.75;
    const target = out.find(
      (m) =>
        m !== r &&
        m.y <= cap.y + 1 &&
        m.y > capTop &&
        m.size * 1.8 <= cap.size &&
        m.runs.some((x) => x.x0 >= cap.x1 - 1 && x.x0 < cap.x1 + 3 * m.size),
    );
    if (!target) continue;
    const first = target.runs.filter((x) => x.x0 >= cap.x1 - 1).reduce((a, b) => (b.x0 < a.x0 ? b : a));
    target.runs.push({ ...cap, y: first.y, size: first.size, x0: first.x0 - 0.01, x1: first.x0 });
    r.runs = [];
  }
  // Small shifted runs (superscripts, subscripts): into the row whose band holds them and
  // which has text right next to them, if its text is larger.
  for (let i = 0; i < out.length; i++) {
    const r = out[i]!;
    r.runs = r.runs.filter((run) => {
      let best: (typeof out)[number] | null = null;
      for (let k = Math.max(0, i - 2); k <= Math.min(out.length - 1, i + 2); k++) {
        const m = out[k]!;
        if (m === r || run.size > 0.85 * m.size) continue;
        if (run.y <= m.y - 0.8 * m.size || run.y >= m.y + 0.45 * m.size) continue;
        const near = m.runs.some((o) => o.size > run.size && run.x0 < o.x1 + m.size && run.x1 > o.x0 - m.size);
        if (near && (!best || Math.abs(m.y - run.y) < Math.abs(best.y - run.y))) best = m;
      }
      if (best) best.runs.push(run);
      return best === null;
    });
  }
  const kept = out.filter((r) => r.runs.length > 0);
  for (const r of kept) r.runs.sort((a, b) => a.x0 - b.x0);
  return kept.map((r) => r.runs);
}

export function pageSegments(runs: readonly Run[]): Segment[] {
  const segments: Segment[] = [];
  // rows() hands each row over sorted left to right.
  for (const row of rows(runs)) {
    let current: Run[] = [];
    let right = Number.NEGATIVE_INFINITY;
    for (const run of row) {
      const prev = current[current.length - 1];
      // The same text drawn twice at almost the same place (fake bold, shadows) is kept once.
      if (prev && prev.text === run.text && Math.abs(prev.x0 - run.x0) < run.size * 0.3) continue;
      const size = Math.max(run.size, prev?.size ?? 0);
      if (prev && run.x0 - right > SEGMENT_GAP * size) {
        segments.push(makeSegment(current));
        current = [];
      }
      current.push(run);
      right = Math.max(right, run.x1);
    }
    if (current.length > 0) segments.push(makeSegment(current));
  }
  return segments;
}

function makeSegment(runs: Run[]): Segment {
  // The baseline and size of the segment are those of its longest run (superscripts and
  // footnote marks are short).
  let main = runs[0]!;
  for (const r of runs) if (r.text.length > main.text.length) main = r;
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const r of runs) {
    x0 = Math.min(x0, r.x0);
    x1 = Math.max(x1, r.x1);
    top = Math.min(top, r.y - r.size * 0.75);
    bottom = Math.max(bottom, r.y + r.size * 0.2);
  }
  return { runs, x0, x1, y: main.y, top, bottom, size: main.size };
}

/** Whether a space goes between two runs of one segment. */
export function needsSpace(prev: Run, next: Run): boolean {
  if (/\s$/.test(prev.text) || /^\s/.test(next.text)) return false;
  return next.x0 - prev.x1 > WORD_GAP * Math.min(prev.size, next.size);
}

// Spacing accents that TeX-made PDFs draw as their own glyph over the next letter.
const ACCENTS: Record<string, string> = {
  '\u00b4': '\u0301',
  '\u02c6': '\u0302',
  '\u02dc': '\u0303',
  '\u00a8': '\u0308',
  '\u02c7': '\u030c',
  '\u02d8': '\u0306',
  '\u02d9': '\u0307',
  '\u02da': '\u030a',
  '\u00af': '\u0304',
  '\u02dd': '\u030b',
};
const ACCENT_BEFORE_LETTER = /([\u00b4\u02c6\u02dc\u00a8\u02c7\u02d8\u02d9\u02da\u00af\u02dd])(\p{L})/gu;

/** `´a` (accent glyph, then the letter it sits on) → `á`. */
export function composeAccents(text: string): string {
  if (!ACCENT_BEFORE_LETTER.test(text)) return text;
  ACCENT_BEFORE_LETTER.lastIndex = 0;
  return text.replace(ACCENT_BEFORE_LETTER, (_, accent: string, letter: string) => `${letter}${ACCENTS[accent] ?? ''}`.normalize('NFC'));
}

export function segmentText(seg: Segment): string {
  let out = '';
  let prev: Run | null = null;
  for (const r of seg.runs) {
    if (prev && needsSpace(prev, r)) out += ' ';
    out += r.text;
    prev = r;
  }
  return composeAccents(oneLine(out));
}
