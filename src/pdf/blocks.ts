// Ordered lines → blocks: tables first, then paragraphs (lines joined until a gap, a style
// change, an indent or a short last line), list items (a bullet or number at the line start)
// and headings (larger lines standing alone, tagged or outlined ones; see headings.ts).

import { endsClosed } from '../shared/line-end';
import type { Inline, Line } from './model';
import { normalizeTitle } from './outline';
import { findTables } from './tables';
import { appendLine, lineInlines, merged, plain, tidy } from './text';

const BULLET = /^([\u2022\u25e6\u25aa\u25ab\u2023\u2043\u25cf\u25cb\u25a0\u25a1\u00b7\u27a2\u27a4\u25ba\u25b6\u2013*-])\s+/u;
const NUMBER = /^(\(?(\d{1,3}|[a-z]|[ivx]{1,4})[.)])\s+/u;

export interface Draft {
  kind: 'paragraph' | 'item' | 'table';
  content: Inline[];
  lines: Line[];
  ordered: boolean;
  marker: string;
  rows: string[][];
}

export interface Layout {
  bodySize: number;
  /** Share of all characters set at each size (rounded to half points). */
  sizeShare: Map<number, number>;
  /** Typical baseline-to-baseline distance of body text. */
  pitch: number;
}

/** Body size (the size most characters have) and body line pitch. */
export function measure(lines: readonly Line[]): Layout {
  const bySize = new Map<number, number>();
  for (const l of lines) {
    const key = Math.round(l.size * 2) / 2;
    let n = 0;
    for (const s of l.segments) for (const r of s.runs) n += r.text.length;
    bySize.set(key, (bySize.get(key) ?? 0) + n);
  }
  let bodySize = 10;
  let most = -1;
  for (const [size, n] of bySize) {
    if (n > most) {
      most = n;
      bodySize = size;
    }
  }
  let total = 0;
  for (const n of bySize.values()) total += n;
  const sizeShare = new Map<number, number>();
  for (const [size, n] of bySize) sizeShare.set(size, total > 0 ? n / total : 0);
  const pitches: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    const dy = b.y - a.y;
    if (a.page === b.page && a.box === b.box && Math.abs(a.size - bodySize) < 0.5 && dy > 0 && dy < 3 * bodySize) pitches.push(dy);
  }
  // A low quantile: line pitch inside paragraphs, not the wider steps between them.
  pitches.sort((a, b) => a - b);
  return { bodySize, sizeShare, pitch: pitches[Math.floor(pitches.length * 0.3)] ?? bodySize * 1.2 };
}

function marker(text: string): { marker: string; ordered: boolean } | null {
  const b = BULLET.exec(text);
  if (b) return { marker: b[0], ordered: false };
  const n = NUMBER.exec(text);
  if (n) return { marker: n[0], ordered: true };
  return null;
}

function stripMarker(content: Inline[], mark: string): Inline[] {
  let rest = mark.length;
  const out = content.map((p) => ({ ...p }));
  while (rest > 0 && out.length > 0) {
    const p = out[0]!;
    if (p.text.length <= rest) {
      rest -= p.text.length;
      out.shift();
    } else {
      p.text = p.text.slice(rest);
      rest = 0;
    }
  }
  return tidy(out);
}

/** `titles`: normalized outline entries; a line that is one stands alone (it is a heading). */
export function draftBlocks(lines: readonly Line[], layout: Layout, titles: ReadonlySet<string> = new Set()): Draft[] {
  const tables = findTables(lines);
  const boxRight = new Map<string, number>();
  for (const l of lines) {
    const key = `${l.page}/${l.box}`;
    boxRight.set(key, Math.max(boxRight.get(key) ?? 0, l.x1));
  }
  const out: Draft[] = [];
  let current: Draft | null = null;
  // The line before was an outline title: nothing joins it.
  let alone = false;
  let t = 0;
  for (let i = 0; i < lines.length; i++) {
    const table = tables[t];
    if (table && i === table.start) {
      out.push({ kind: 'table', content: [], lines: lines.slice(table.start, table.end), ordered: false, marker: '', rows: table.rows });
      current = null;
      i = table.end - 1;
      t++;
      continue;
    }
    const line = lines[i]!;
    const content = lineInlines(line);
    if (content.length === 0) continue;
    const text = plain(content);
    // A numbered line set larger than body text is a numbered heading, not a list item.
    const mark = line.size < layout.bodySize * 1.15 ? marker(text) : null;
    const title = titles.size > 0 && titles.has(normalizeTitle(text));
    if (current && !mark && !title && !alone && continues(current, line, text, layout, boxRight)) {
      appendLine(current.content, content);
      current.lines.push(line);
      continue;
    }
    current = mark
      ? {
          kind: 'item',
          content: stripMarker(content, mark.marker),
          lines: [line],
          ordered: mark.ordered,
          marker: mark.marker.trim(),
          rows: [],
        }
      : { kind: 'paragraph', content, lines: [line], ordered: false, marker: '', rows: [] };
    out.push(current);
    alone = title;
  }
  for (const d of out) d.content = merged(d.content);
  return out;
}

/** Whether `line` carries on the paragraph or list item `block`. */
function continues(block: Draft, line: Line, text: string, layout: Layout, boxRight: Map<string, number>): boolean {
  const prev = block.lines[block.lines.length - 1]!;
  // The paragraph's last characters (it can be long: no need to join it all).
  const prevText = block.content[block.content.length - 1]?.text.slice(-3) ?? '';
  const size = Math.max(prev.size, line.size);
  // Style: size or weight changes start a new block.
  if (Math.abs(prev.size - line.size) > 0.12 * size || prev.tag !== line.tag) return false;
  if (prev.page !== line.page || prev.box !== line.box) {
    // Across a column or page break a sentence may carry on: no closing punctuation before, lower case after.
    return !endsClosed(prevText) && /^\p{Ll}/u.test(text);
  }
  const dy = line.y - prev.y;
  const pitch = Math.abs(prev.size - layout.bodySize) < 0.5 ? layout.pitch : prev.size * 1.25;
  if (dy <= 0 || dy > pitch * 1.3 + 0.1 * size) return false;
  // A first-line indent starts a paragraph (list item text hangs: compare with its first line).
  const anchor = block.kind === 'item' ? block.lines[0]!.x0 + size : prev.x0;
  if (line.x0 > anchor + 0.9 * size && block.lines.length >= 1 && block.kind !== 'item') return false;
  if (block.kind === 'item' && line.x0 < block.lines[0]!.x0 - 0.5 * size) return false;
  // A short line that closes a sentence ends its paragraph.
  const right = boxRight.get(`${prev.page}/${prev.box}`) ?? prev.x1;
  if (prev.x1 < right - 4 * size && endsClosed(prevText)) return false;
  return true;
}
