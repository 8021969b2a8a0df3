// Headings from a tagged PDF's structure tree: the marked-content ids under H1–H6 (and H, Title)
// elements, so the text drawn inside them can be told apart as headings at the author's level.

export interface StructNode {
  role?: string;
  type?: string;
  id?: string;
  children?: StructNode[];
}

function roleLevel(role: string | undefined): number {
  if (!role) return 0;
  const m = /^H([1-6])$/.exec(role);
  if (m) return Number(m[1]);
  if (role === 'Title') return 1;
  return 0;
}

/** Marked-content id → heading level (1–6), for the content of heading elements. */
export function headingContent(root: StructNode | null | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (node: StructNode, level: number, depth: number) => {
    if (depth > 64) return;
    const own = roleLevel(node.role);
    const here = own || level;
    if (node.type === 'content' && typeof node.id === 'string' && here > 0) out.set(node.id, here);
    for (const c of node.children ?? []) walk(c, here, depth + 1);
  };
  if (root) walk(root, 0, 0);
  return out;
}

export interface MarkedItem {
  type?: string;
  id?: string | null;
  str?: string;
}

/** The heading level of every text item (0 outside headings), following the begin/end marks. */
export function itemLevels(items: readonly MarkedItem[], levels: ReadonlyMap<string, number>): number[] {
  const stack: number[] = [];
  const out: number[] = [];
  for (const item of items) {
    if (item.type === 'beginMarkedContent' || item.type === 'beginMarkedContentProps') {
      const own = typeof item.id === 'string' ? (levels.get(item.id) ?? 0) : 0;
      stack.push(own || (stack[stack.length - 1] ?? 0));
    } else if (item.type === 'endMarkedContent') {
      stack.pop();
    } else if (typeof item.str === 'string') {
      out.push(stack[stack.length - 1] ?? 0);
    }
  }
  return out;
}
