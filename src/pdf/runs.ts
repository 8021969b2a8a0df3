// Text runs of one page from pdf.js's text content, in page coordinates with the origin at
// the top left (the page as seen, /Rotate applied). Text that is not horizontal (margin
// stamps such as "Downloaded from …" printed sideways) is left out: it never belongs to the
// reading flow.

import type { Run } from './model';

export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
}

export interface PdfLink {
  rect: number[];
  url: string;
}

/** The 6-number affine transform product m1 × m2 (PDF convention). */
function multiply(m1: readonly number[], m2: readonly number[]): number[] {
  const [a1 = 0, b1 = 0, c1 = 0, d1 = 0, e1 = 0, f1 = 0] = m1;
  const [a2 = 0, b2 = 0, c2 = 0, d2 = 0, e2 = 0, f2 = 0] = m2;
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

function apply(m: readonly number[], x: number, y: number): [number, number] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}

const WHITESPACE = /\s+/g;

/**
 * `viewport` is the page's viewport transform at scale 1 (PDF user space → top-left page space);
 */
export function pageRuns(
  items: readonly PdfTextItem[],
  viewport: readonly number[],
  links: readonly PdfLink[],
  tags: readonly number[] = [],
): Run[] {
  const boxes = links.map((l) => linkBox(l, viewport));
  const runs: Run[] = [];
  items.forEach((item, index) => {
    // Paired single quotes set as double quotes (a TeX habit) read as the double quote they show.
    const text = item.str
      .replace(WHITESPACE, ' ')
      .replace(/\u2018\u2018/g, '\u201c')
      .replace(/\u2019\u2019/g, '\u201d');
    if (text.trim() === '') return;
    const m = multiply(viewport, item.transform);
    const [a = 0, b = 0, c = 0, d = 0] = m;
    const size = Math.hypot(c, d);
    // Horizontal, upright text only; a run rotated by more than a few degrees is furniture.
    if (size <= 0 || a <= 0 || Math.abs(b) > 0.1 * Math.abs(a)) return;
    const [x0, y] = apply(m, 0, 0);
    const scale = Math.hypot(a, b) / Math.max(1e-9, Math.hypot(item.transform[0] ?? 0, item.transform[1] ?? 0));
    const width = item.width * (Number.isFinite(scale) && scale > 0 ? scale : 1);
    const run: Run = {
      text,
      x0,
      x1: x0 + width,
      y,
      size,
      href: null,
      tag: tags[index] ?? 0,
    };
    for (const piece of splitAtLinks(run, boxes)) {
      piece.href = linkAt(boxes, piece);
      runs.push(piece);
    }
  });
  return runs;
}

/**
 * pdf.js joins the text of a line into one item, link or not: a run that a link area covers
 * only in part is cut where the area starts and ends (character positions estimated from the
 * run's width, moved to the nearest word boundary).
 */
function splitAtLinks(run: Run, boxes: readonly Box[]): Run[] {
  const cy = run.y - run.size * 0.3;
  const n = run.text.length;
  const width = run.x1 - run.x0;
  const hits = boxes.filter((b) => cy >= b.y0 - 1 && cy <= b.y1 + 1 && b.x1 > run.x0 && b.x0 < run.x1);
  if (n < 2 || width <= 0 || hits.length === 0) return [run];
  const at = offsets(run.text).map((f) => run.x0 + f * width);
  const cuts = new Set<number>();
  for (const b of hits) {
    for (const edge of [b.x0, b.x1]) {
      if (edge <= run.x0 + 1 || edge >= run.x1 - 1) continue;
      // The character boundary nearest to the edge, then the word boundary nearest to that.
      let i = 0;
      while (i < n && at[i + 1]! <= edge) i++;
      if (i < n && edge - at[i]! > at[i + 1]! - edge) i++;
      cuts.add(wordBoundary(run.text, i));
    }
  }
  const sorted = [...cuts].filter((c) => c > 0 && c < n).sort((a, b) => a - b);
  if (sorted.length === 0) return [run];
  const out: Run[] = [];
  let start = 0;
  for (const end of [...sorted, n]) {
    out.push({ ...run, text: run.text.slice(start, end), x0: at[start]!, x1: at[end]! });
    start = end;
  }
  return out;
}

/** Estimated left edge of every character (and the end), as a fraction of the run's width:
 * narrow and wide letters weighted roughly as in common proportional fonts. */
function offsets(text: string): number[] {
  const weights = Array.from(text, (c) => {
    if (/[ijlftrI.,;:!'|() ]/.test(c)) return 0.5;
    if (/[mwMW]/.test(c)) return 1.5;
    if (/[A-Z]/.test(c)) return 1.25;
    return 1;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const out = [0];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    out.push(sum / total);
  }
  return out;
}

/** The word boundary nearest to index i (the start of a word, after its space). */
function wordBoundary(text: string, i: number): number {
  for (let d = 0; d <= 3; d++) {
    for (const k of [i - d, i + d]) {
      if (k > 0 && k < text.length && text.charAt(k - 1) === ' ' && text.charAt(k) !== ' ') return k;
      if (k > 0 && k < text.length && text.charAt(k) === ' ' && text.charAt(k - 1) !== ' ') return k;
    }
  }
  return i;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  url: string;
}

function linkBox(link: PdfLink, viewport: readonly number[]): Box {
  const [rx0 = 0, ry0 = 0, rx1 = 0, ry1 = 0] = link.rect;
  const [ax, ay] = apply(viewport, rx0, ry0);
  const [bx, by] = apply(viewport, rx1, ry1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by), url: link.url };
}

/** The link whose area holds the middle of the run's x-height band. */
function linkAt(boxes: readonly Box[], run: Run): string | null {
  const cx = (run.x0 + run.x1) / 2;
  const cy = run.y - run.size * 0.3;
  for (const b of boxes) {
    if (cx >= b.x0 && cx <= b.x1 && cy >= b.y0 - 1 && cy <= b.y1 + 1) return b.url;
  }
  return null;
}
