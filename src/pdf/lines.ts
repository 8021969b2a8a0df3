// Segments of one reading-order box → lines: segments on one baseline (within a fraction of the
// font size) form a line, left to right. A line keeps its segments apart so tables can see
// their cells.

import type { Line, Segment } from './model';

export function boxLines(box: readonly Segment[], page: number, boxIndex: number): Line[] {
  const sorted = [...box].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const groups: Segment[][] = [];
  for (const s of sorted) {
    const last = groups[groups.length - 1];
    const head = last?.[0];
    if (last && head && Math.abs(s.y - head.y) <= 0.4 * Math.min(s.size, head.size)) last.push(s);
    else groups.push([s]);
  }
  return groups.map((g) => makeLine(g, page, boxIndex));
}

function makeLine(segments: Segment[], page: number, box: number): Line {
  segments.sort((a, b) => a.x0 - b.x0);
  let size = 0;
  let sizeChars = 0;
  const tagged = new Map<number, number>();
  for (const s of segments) {
    for (const r of s.runs) {
      const n = r.text.trim().length;
      tagged.set(r.tag, (tagged.get(r.tag) ?? 0) + n);
      if (n > sizeChars) {
        sizeChars = n;
        size = r.size;
      }
    }
  }
  return {
    segments,
    x0: Math.min(...segments.map((s) => s.x0)),
    x1: Math.max(...segments.map((s) => s.x1)),
    y: segments[0]!.y,
    top: Math.min(...segments.map((s) => s.top)),
    bottom: Math.max(...segments.map((s) => s.bottom)),
    size: size || segments[0]!.size,
    page,
    box,
    tag: [...tagged].reduce((best, cur) => (cur[1] > best[1] ? cur : best), [0, 0])[0],
  };
}
