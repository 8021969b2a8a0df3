// The document outline (bookmarks) as a flat list of titles with their depth, and the key under
// which a line of text is compared with them.

export interface OutlineEntry {
  title: string;
  depth: number;
}

export interface OutlineNode {
  title: string;
  items?: OutlineNode[];
}

/** Case, punctuation and spacing do not matter when a line is compared with an outline title. */
export function normalizeTitle(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The outline's entries with their depth (bounded: outlines can be huge). */
export function flattenOutline(nodes: readonly OutlineNode[] | null, depth = 0, out: OutlineEntry[] = []): OutlineEntry[] {
  for (const n of nodes ?? []) {
    if (out.length >= 2000) break;
    if (typeof n.title === 'string') out.push({ title: n.title, depth });
    if (n.items && depth < 5) flattenOutline(n.items, depth + 1, out);
  }
  return out;
}
