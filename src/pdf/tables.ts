// Tables where the layout makes them clear: a run of lines of one page and box in which most
// lines split into several segments that fall into shared columns. Lines of one segment may sit
// inside (section rows, wrapped cells); prose-wide lines end the table. Columns come from the
// segments of the split lines; a line whose cells are all free in the row above, and close to
// it, completes that row (cells set at different heights), and a smaller line under a row
// continues its cells (a note under a name).

import type { Line, Segment } from './model';
import { segmentText } from './segments';

export interface TableSpan {
  start: number;
  end: number;
  rows: string[][];
}

/** Cells longer than this (on average) are prose that happened to line up, not a table. */
const MAX_MEAN_CELL = 60;

type Column = [number, number];

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

function columnsOf(lines: readonly Line[]): Column[] {
  const multi = lines.filter((l) => l.segments.length >= 2);
  let template = multi[0]!;
  for (const l of multi) if (l.segments.length > template.segments.length) template = l;
  const cols: Column[] = template.segments.map((s) => [s.x0, s.x1]);
  for (const l of multi) {
    for (const s of l.segments) {
      const hits = cols.filter(([c0, c1]) => overlap(s.x0, s.x1, c0, c1) > 0);
      if (hits.length === 1) {
        const c = hits[0]!;
        c[0] = Math.min(c[0], s.x0);
        c[1] = Math.max(c[1], s.x1);
      } else if (hits.length === 0) {
        cols.push([s.x0, s.x1]);
        cols.sort((a, b) => a[0] - b[0]);
      }
    }
  }
  return cols;
}

function columnOf(seg: Segment, cols: readonly Column[]): number {
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  cols.forEach(([c0, c1], i) => {
    const o = overlap(seg.x0, seg.x1, c0, c1);
    const score = o > 0 ? o : -Math.min(Math.abs(seg.x0 - c1), Math.abs(c0 - seg.x1));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/** The column a header set above several columns belongs to: the first of the widest run of columns it is centred on (the convention of src/markdown for spanning cells). */
function spanColumn(seg: Segment, line: Line, cols: readonly Column[]): number {
  const centre = (seg.x0 + seg.x1) / 2;
  const k = line.segments.indexOf(seg);
  // The span stops short of the neighbouring headers on the same line.
  const floor = line.segments[k - 1]?.x1 ?? Number.NEGATIVE_INFINITY;
  const ceiling = line.segments[k + 1]?.x0 ?? Number.POSITIVE_INFINITY;
  let best = columnOf(seg, cols);
  let bestWidth = 0;
  for (let a = 0; a < cols.length; a++) {
    for (let b = a; b < cols.length; b++) {
      const lo = cols[a]![0];
      const hi = cols[b]![1];
      if (lo < floor || hi > ceiling) continue;
      if (seg.x0 < lo - seg.size || seg.x1 > hi + seg.size) continue;
      if (Math.abs((lo + hi) / 2 - centre) > 1.5 * seg.size) continue;
      if (hi - lo > bestWidth) {
        bestWidth = hi - lo;
        best = a;
      }
    }
  }
  return best;
}

/** A column of lone symbols (currency signs set apart from their amounts) joins the column to its right. */
function mergeSymbolColumns(cols: Column[], lines: readonly Line[]): Column[] {
  const segments = lines.flatMap((l) => l.segments);
  // Each segment's column as the columns stand; worked out again only after a merge widens one.
  let owners: number[] | null = null;
  const out: Column[] = [];
  for (let i = 0; i < cols.length; i++) {
    const col = cols[i]!;
    owners ??= segments.map((s) => columnOf(s, cols));
    const current = owners;
    const cells = segments.filter((_, k) => current[k] === i).map(segmentText);
    const next = cols[i + 1];
    if (next && cells.length > 0 && cells.every((c) => c.length === 1 && !/[\p{L}\p{N}]/u.test(c))) {
      next[0] = Math.min(next[0], col[0]);
      owners = null;
      continue;
    }
    out.push(col);
  }
  return out;
}

function buildRows(lines: readonly Line[]): string[][] | null {
  const cols = mergeSymbolColumns(columnsOf(lines), lines);
  if (cols.length < 2) return null;
  // Header lines: those above the first line that fills most columns.
  const full = lines.findIndex((l) => l.segments.length >= Math.max(2, Math.ceil(0.6 * cols.length)));
  // Cells line up in their column (left, right or centre); prose with wide word gaps does not.
  let aligned = 0;
  let placed = 0;
  for (const line of lines) {
    if (line.segments.length < 2) continue;
    for (const seg of line.segments) {
      const [c0, c1] = cols[columnOf(seg, cols)]!;
      const tol = seg.size;
      placed++;
      if (Math.abs(seg.x0 - c0) <= tol || Math.abs(seg.x1 - c1) <= tol || Math.abs(seg.x0 + seg.x1 - c0 - c1) <= 2 * tol) aligned++;
    }
  }
  if (aligned < 0.75 * placed) return null;
  const rows: { cells: string[]; bottom: number; size: number }[] = [];
  let segments = 0;
  let chars = 0;
  lines.forEach((line, n) => {
    const cells = cols.map(() => '');
    for (const seg of line.segments) {
      const i = n < full ? spanColumn(seg, line, cols) : columnOf(seg, cols);
      const text = segmentText(seg);
      cells[i] = cells[i] === '' ? text : `${cells[i]} ${text}`;
      segments++;
      chars += text.length;
    }
    const row = rows[rows.length - 1];
    const close = row !== undefined && line.top - row.bottom < 0.6 * line.size;
    const free = row !== undefined && cells.every((c, i) => c === '' || row.cells[i] === '');
    const note = row !== undefined && line.size < 0.9 * row.size && line.top - row.bottom < 0.8 * row.size;
    // Header lines above the body whose cells do not collide make one header row.
    const header = n < full && n > 0 && free;
    if (row && ((close && free) || note || header)) {
      cells.forEach((c, i) => {
        if (c !== '') row.cells[i] = row.cells[i] === '' ? c : `${row.cells[i]} ${c}`;
      });
      row.bottom = Math.max(row.bottom, line.bottom);
    } else {
      rows.push({ cells, bottom: line.bottom, size: line.size });
    }
  });
  if (segments === 0 || chars / segments > MAX_MEAN_CELL || rows.length < 2) return null;
  return rows.map((r) => r.cells);
}

/** Table spans over `lines` (indices into it, end exclusive). */
export function findTables(lines: readonly Line[]): TableSpan[] {
  const out: TableSpan[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i]!;
    if (first.segments.length < 2) {
      i++;
      continue;
    }
    let left = first.x0;
    let right = first.x1;
    let j = i + 1;
    let lastMulti = i;
    while (j < lines.length) {
      const l = lines[j]!;
      const prev = lines[j - 1]!;
      if (l.page !== first.page || l.box !== first.box) break;
      // A wide vertical gap ends the table, and so does a prose-wide line.
      if (l.top - prev.bottom > 3.5 * Math.max(l.size, prev.size)) break;
      if (l.segments.length < 2 && l.x1 - l.x0 > 0.6 * (right - left)) break;
      // Larger text (a heading after the table) ends it too.
      if (l.size > 1.2 * first.size) break;
      if (l.segments.length >= 2) {
        lastMulti = j;
        left = Math.min(left, l.x0);
        right = Math.max(right, l.x1);
      }
      // More than two one-segment lines in a row: the table is over.
      if (j - lastMulti > 2) break;
      j++;
    }
    const end = lastMulti + 1;
    const span = lines.slice(i, end);
    const multi = span.filter((l) => l.segments.length >= 2);
    const maxCols = Math.max(...multi.map((l) => l.segments.length));
    const enough = maxCols >= 3 ? multi.length >= 2 : multi.length >= 3;
    // Header lines just above (one segment each, set off from the left edge of the table).
    let start = i;
    while (enough && start > 0 && i - start < 3) {
      const h = lines[start - 1]!;
      const below = lines[start]!;
      if (h.page !== first.page || h.box !== first.box || h.segments.length !== 1 || below.top - h.bottom > 1.2 * h.size) break;
      if (h.x0 < left + 2 * h.size || h.x1 > right + h.size) break;
      start--;
    }
    const rows = enough ? buildRows(lines.slice(start, end)) : null;
    if (rows && start >= (out[out.length - 1]?.end ?? 0)) {
      out.push({ start, end, rows });
      i = end;
    } else {
      i++;
    }
  }
  return out;
}
