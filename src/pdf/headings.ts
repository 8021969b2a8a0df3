// Drafts → the block model: which paragraphs are headings and at what level, and list items
// grouped into lists. A tagged PDF's structure tree decides first (H1–H6), then the outline (a
// block whose text is an outline entry is a heading at that entry's depth), then the layout: a
// short block set larger than body text, in a size little text uses, levels by size (largest
// first). Font weight is not used: pdf.js's text layer does not report it (only the operator
// list does, at the cost of decoding every image).

import { endsAsRunOn } from '../shared/line-end';
import type { Draft, Layout } from './blocks';
import type { Block, ListItem } from './model';
import { normalizeTitle, type OutlineEntry } from './outline';
import { plain } from './text';

const LARGER = 1.15;
const MAX_HEADING_SHARE = 0.25;

function headingSize(d: Draft, layout: Layout): number | null {
  if (d.kind !== 'paragraph' || d.lines.length > 2) return null;
  const text = plain(d.content);
  // Headings are short and are not sentences.
  if (text.length > 120 || endsAsRunOn(text)) return null;
  // Mostly letters: a large formula or number is not a heading.
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 2 || letters < 0.5 * text.replace(/\s/g, '').length) return null;
  const size = d.lines[0]!.size;
  const key = Math.round(size * 2) / 2;
  // A size that much of the text is set in is a second body size, not a heading size.
  if (size >= layout.bodySize * LARGER) return (layout.sizeShare.get(key) ?? 0) <= MAX_HEADING_SHARE ? key : null;
  return null;
}

export function toBlocks(drafts: readonly Draft[], layout: Layout, outline: readonly OutlineEntry[]): Block[] {
  const byTitle = new Map<string, number>();
  for (const e of outline) {
    const key = normalizeTitle(e.title);
    if (key !== '' && !byTitle.has(key)) byTitle.set(key, Math.min(6, e.depth + 1));
  }
  const sizes = new Set<number>();
  const kinds = drafts.map((d) => {
    const s = headingSize(d, layout);
    if (s !== null) sizes.add(s);
    return s;
  });
  const ranked = [...sizes].sort((a, b) => b - a);
  const blocks: Block[] = [];
  drafts.forEach((d, i) => {
    if (d.kind === 'table') {
      blocks.push({ kind: 'table', rows: d.rows });
      return;
    }
    if (d.kind === 'item') {
      const last = blocks[blocks.length - 1];
      const item = listItem(d);
      const ordered = item.number !== null;
      if (last && last.kind === 'list' && last.ordered === ordered) last.items.push(item);
      else blocks.push({ kind: 'list', ordered, items: [item] });
      return;
    }
    const tag = d.lines[0]!.tag;
    if (tag > 0 && d.lines.every((l) => l.tag === tag)) {
      blocks.push({ kind: 'heading', level: tag, content: d.content });
      return;
    }
    const fromOutline = byTitle.get(normalizeTitle(plain(d.content)));
    if (fromOutline !== undefined && d.lines.length <= 3) {
      blocks.push({ kind: 'heading', level: fromOutline, content: d.content });
      return;
    }
    const s = kinds[i];
    if (s !== null && s !== undefined) {
      blocks.push({ kind: 'heading', level: Math.min(6, ranked.indexOf(s) + 1), content: d.content });
      return;
    }
    blocks.push({ kind: 'paragraph', content: d.content });
  });
  return blocks;
}

/** Numbers stay numbers (an ordered list keeps its printed numbering); letters and roman numerals are kept as printed. */
function listItem(d: Draft): ListItem {
  const n = /^\(?(\d{1,3})[.)]$/.exec(d.marker);
  if (n) return { number: Number(n[1]), label: '', content: d.content };
  return { number: null, label: d.ordered ? d.marker : '', content: d.content };
}
