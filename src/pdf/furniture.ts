// Running headers, footers and page numbers: text the reader skips. Three signs, all from the
// layout: the same text (numbers aside) at the same height on several pages; a lone number at
// the top or bottom edge; and small lines in the top or bottom margin that stand apart from
// the body by a wide gap.

import { oneLine } from '../shared/one-line';
import type { Line } from './model';
import { lineText } from './text';

export interface PageLines {
  lines: Line[];
  height: number;
}

/** The outer bands of a page where headers and footers live (fraction of the height). */
const EDGE = 0.12;
const PAGE_NUMBER = /^[\s\-–—([]*([0-9]{1,4}|[ivxlcdm]{1,6})([\s/]+[0-9]{1,4})?[\s\-–—)\]]*$/iu;

function key(text: string): string {
  return oneLine(text.toLowerCase().replace(/[0-9]+/g, '#'));
}

function atEdge(line: Line, height: number): boolean {
  return line.bottom < height * EDGE || line.top > height * (1 - EDGE);
}

/** A line near a page's edge, its text and where it repeats: its text with digits as `#`, about its height. */
interface EdgeLine {
  line: Line;
  text: string;
  repeatKey: string;
}

function edgeLines(p: PageLines): EdgeLine[] {
  return p.lines
    .filter((line) => atEdge(line, p.height))
    .map((line) => {
      const text = lineText(line);
      return { line, text, repeatKey: `${key(text)}@${Math.round(line.y / (p.height * 0.02))}` };
    });
}

export function dropFurniture(pages: readonly PageLines[], bodySize: number, pitch: number): Line[][] {
  // Repeated lines: same text at about the same height near an edge, on enough pages.
  const edges = pages.map(edgeLines);
  const seen = new Map<string, Set<number>>();
  edges.forEach((lines, n) => {
    for (const { repeatKey } of lines) {
      const pages = seen.get(repeatKey) ?? new Set<number>();
      pages.add(n);
      seen.set(repeatKey, pages);
    }
  });
  const minPages = Math.max(2, Math.ceil(pages.length * 0.4));
  return pages.map((p, n) => {
    const furniture = new Set<Line>();
    for (const { line, text, repeatKey } of edges[n]!) {
      if (pages.length >= 2 && (seen.get(repeatKey)?.size ?? 0) >= minPages) furniture.add(line);
      else if (PAGE_NUMBER.test(text)) furniture.add(line);
    }
    for (const l of edgeTiers(p, bodySize, pitch)) furniture.add(l);
    return p.lines.filter((l) => !furniture.has(l));
  });
}

interface Tier {
  lines: Line[];
  top: number;
  bottom: number;
  size: number;
  segments: number;
  x0: number;
  x1: number;
  text: string;
}

/** Lines side by side (their heights overlap) form a tier, whatever box they were read in. */
function tiers(lines: readonly Line[]): Tier[] {
  const out: Tier[] = [];
  for (const l of [...lines].sort((a, b) => a.top - b.top)) {
    const t = out[out.length - 1];
    if (t && l.top < t.bottom - 0.2 * l.size) {
      t.lines.push(l);
      t.bottom = Math.max(t.bottom, l.bottom);
      t.size = Math.max(t.size, l.size);
      t.segments += l.segments.length;
      t.x0 = Math.min(t.x0, l.x0);
      t.x1 = Math.max(t.x1, l.x1);
      t.text += ` ${lineText(l)}`;
    } else {
      out.push({
        lines: [l],
        top: l.top,
        bottom: l.bottom,
        size: l.size,
        segments: l.segments.length,
        x0: l.x0,
        x1: l.x1,
        text: lineText(l),
      });
    }
  }
  return out;
}

/** Pieces far apart: running heads are set left / centre / right, not in columns a gutter apart. */
function wideApart(t: Tier, minGap: number): boolean {
  const segs = t.lines.flatMap((l) => l.segments).sort((a, b) => a.x0 - b.x0);
  for (let i = 1; i < segs.length; i++) if (segs[i]!.x0 - segs[i - 1]!.x1 < minGap) return false;
  return true;
}

/**
 * Furniture at the top and bottom of one page, scanned from the edge inward while it lasts:
 * marks without letters or digits, a lone page number, a line spread over the width in
 * separate pieces (left / centre / right running heads), or a block of lines no larger than
 * body text set apart from the body by a wide gap.
 */
function edgeTiers(page: PageLines, bodySize: number, pitch: number): Line[] {
  const all = tiers(page.lines);
  if (all.length < 2) return [];
  // The text area, robust to a stray stamp in the margin.
  const x0s = all.map((t) => t.x0).sort((a, b) => a - b);
  const x1s = all.map((t) => t.x1).sort((a, b) => a - b);
  const left = x0s[Math.floor(x0s.length * 0.1)]!;
  const right = x1s[Math.floor(x1s.length * 0.9)]!;
  const out: Line[] = [];
  const scan = (ordered: Tier[], inBand: (t: Tier) => boolean, gap: (a: Tier, b: Tier) => number) => {
    let i = 0;
    while (i < ordered.length - 1) {
      const t = ordered[i]!;
      const next = ordered[i + 1]!;
      const apartBy = gap(t, next);
      const lone = PAGE_NUMBER.test(t.text) && t.lines.length <= 2;
      const mark = !/[\p{L}\p{N}]/u.test(t.text);
      const spread =
        t.segments >= 2 &&
        t.segments <= 3 &&
        Math.abs(t.x0 - left) <= 3 * t.size &&
        Math.abs(right - t.x1) <= 3 * t.size &&
        wideApart(t, 0.1 * (right - left));
      if (inBand(t) && (mark || lone || spread)) {
        out.push(...t.lines);
        i++;
        continue;
      }
      // A lone number outside the band still counts when the body stands well away from it.
      if (lone && i === 0 && apartBy >= 1.5 * pitch) {
        out.push(...t.lines);
        i++;
        continue;
      }
      let k = i;
      let found = -1;
      while (k < Math.min(ordered.length - 1, i + 3)) {
        const a = ordered[k]!;
        if (!inBand(a) || a.size > bodySize * 1.02) break;
        // Text well below body size needs less room around it to stand apart.
        const needed = a.size <= 0.8 * bodySize ? Math.max(1.2 * pitch, 2 * a.size) : 2 * pitch;
        if (gap(a, ordered[k + 1]!) >= needed) {
          found = k;
          break;
        }
        k++;
      }
      if (found < 0) return;
      for (let n = i; n <= found; n++) out.push(...ordered[n]!.lines);
      i = found + 1;
    }
  };
  scan(
    all,
    (t) => t.bottom < page.height * EDGE,
    (a, b) => b.top - a.bottom,
  );
  scan(
    [...all].reverse(),
    (t) => t.top > page.height * (1 - EDGE),
    (a, b) => a.top - b.bottom,
  );
  return out;
}
