// Reading order of one page. Segments are stacked into horizontal bands (segments that overlap
// vertically); consecutive bands that share an empty vertical strip (a gutter) with text on
// both sides form a column group, read left column first, then right, each side ordered the
// same way again (three columns split twice). Bands that share no gutter are read top to
// bottom. A gutter only counts between text columns: tables, whose cells are short, are read
// row by row instead.

import type { Segment } from './model';

type Interval = [number, number];

/** A column's lines are long: at least this many font sizes, as a median. */
const COLUMN_LINE_EMS = 9;
/** A column holds at least this many lines. */
const COLUMN_MIN_LINES = 3;
/** Narrowest gutter, in font sizes. */
const GUTTER_EMS = 1.0;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function bands(segs: readonly Segment[]): Segment[][] {
  const sorted = [...segs].sort((a, b) => a.top - b.top);
  const out: Segment[][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const s of sorted) {
    const last = out[out.length - 1];
    // Touching is not overlapping: a small tolerance keeps tight leading apart.
    if (last && s.top < bottom - 0.15 * s.size) {
      last.push(s);
      bottom = Math.max(bottom, s.bottom);
    } else {
      out.push([s]);
      bottom = s.bottom;
    }
  }
  return out;
}

/** The empty strips of a band within [lo, hi]. */
function freeStrips(band: readonly Segment[], lo: number, hi: number): Interval[] {
  const spans = band.map((s) => [s.x0, s.x1] as Interval).sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  let x = lo;
  for (const [a, b] of spans) {
    if (a > x) out.push([x, a]);
    x = Math.max(x, b);
  }
  if (x < hi) out.push([x, hi]);
  return out;
}

function intersect(a: readonly Interval[], b: readonly Interval[], minWidth: number): Interval[] {
  const out: Interval[] = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (hi - lo >= minWidth) out.push([lo, hi]);
    }
  }
  return out;
}

/** A side of a gutter reads as a text column: enough lines, most of them long (table cells are short). */
function isTextColumn(segs: readonly Segment[]): boolean {
  return segs.length >= COLUMN_MIN_LINES && median(segs.map((s) => (s.x1 - s.x0) / s.size)) >= COLUMN_LINE_EMS;
}

function splitAt(group: readonly Segment[][], gutter: Interval): [Segment[], Segment[]] {
  const mid = (gutter[0] + gutter[1]) / 2;
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const band of group) for (const s of band) (s.x1 <= mid ? left : right).push(s);
  return [left, right];
}

/** The segments in reading order, cut into boxes (one per column piece or run of full-width bands). */
export function readingOrder(segs: readonly Segment[], depth = 0): Segment[][] {
  if (segs.length === 0) return [];
  const lo = Math.min(...segs.map((s) => s.x0));
  const hi = Math.max(...segs.map((s) => s.x1));
  const size = median(segs.map((s) => s.size));
  const all = bands(segs);
  const boxes: Segment[][] = [];
  let pending: Segment[] = [];
  const flush = () => {
    if (pending.length > 0) boxes.push(pending);
    pending = [];
  };
  let i = 0;
  while (i < all.length) {
    // Grow the longest run of bands from i that keeps a common inner gutter.
    let strips = freeStrips(all[i]!, lo, hi).filter(([a, b]) => a > lo && b < hi);
    let best: { end: number; left: Segment[]; right: Segment[] } | null = null;
    let j = i;
    while (j < all.length) {
      const next = intersect(strips, freeStrips(all[j]!, lo, hi), GUTTER_EMS * size);
      if (next.length === 0) break;
      strips = next;
      j++;
    }
    if (depth < 4 && j - i >= COLUMN_MIN_LINES) {
      for (const g of strips) {
        const [left, right] = splitAt(all.slice(i, j), g);
        if (isTextColumn(left) && isTextColumn(right)) best = { end: j, left, right };
      }
    }
    if (best) {
      flush();
      boxes.push(...readingOrder(best.left, depth + 1), ...readingOrder(best.right, depth + 1));
      i = best.end;
    } else {
      pending.push(...all[i]!);
      i++;
    }
  }
  flush();
  return boxes;
}
