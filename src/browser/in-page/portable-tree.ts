// A frame's reader form in transit (protocol.ts PortableTree): written from the frame's inert copy,
// rebuilt in the parent's where the frame's iframe stands. Rebuilt with createElement/setAttribute,
// never by parsing markup (Trusted Types); event-handler attributes are not carried (setting one is
// a script sink, and no reader sees them).
import type { PortableTree } from './protocol';

/** The children of `root` as a flat list (an explicit stack: the depth is the page's to choose). */
export function encodeChildren(root: Node): PortableTree {
  const out: PortableTree = [];
  const stack: Array<Node | 0> = [...root.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === 0) {
      out.push(0);
    } else if (node.nodeType === Node.TEXT_NODE) {
      out.push((node as Text).data);
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const el = node as Element;
      const open = [el.localName];
      for (const attr of el.attributes) if (!attr.name.startsWith('on')) open.push(attr.name, attr.value);
      out.push(open);
      stack.push(0, ...[...el.childNodes].reverse());
    }
  }
  return out;
}

/** Rebuilds `tree` inside `parent` (an element of `doc`). A malformed entry or attribute is skipped. */
export function graft(tree: PortableTree, parent: Element, doc: Document): void {
  const open: Element[] = [parent];
  for (const entry of tree) {
    const current = open[open.length - 1]!;
    if (entry === 0) {
      if (open.length > 1) open.pop();
    } else if (typeof entry === 'string') {
      current.appendChild(doc.createTextNode(entry));
    } else if (Array.isArray(entry)) {
      let el: Element;
      try {
        el = doc.createElement(String(entry[0]));
      } catch {
        el = doc.createElement('div');
      }
      for (let i = 1; i + 1 < entry.length; i += 2) {
        try {
          el.setAttribute(String(entry[i]), String(entry[i + 1]));
        } catch {
          // Not a valid attribute name: left out.
        }
      }
      open.push(current.appendChild(el));
    }
  }
}
