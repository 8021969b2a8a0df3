// A frame's reader form in transit (protocol.ts PortableTree): written from the frame's light tree,
// rebuilt in the parent's form where the frame's iframe stands, by that form's builder (never by
// parsing markup: Trusted Types). Event-handler attributes are not carried (setting one is a script
// sink, and no reader sees them).
import type { LightNode } from './light-tree';
import type { PortableTree } from './protocol';
import type { FormBuilder } from './reader-form';

/** The children of `root` as a flat list (an explicit stack: the depth is the page's to choose). */
export function encodeChildren(root: LightNode): PortableTree {
  const out: PortableTree = [];
  const stack: Array<LightNode | 0> = [];
  const pushChildren = (of: LightNode) => {
    for (let child = of.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  };
  pushChildren(root);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === 0) {
      out.push(0);
    } else if (node.nodeType === Node.TEXT_NODE) {
      out.push(node.data);
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      const open = [node.localName];
      const attributes = node.attributePairs();
      for (let i = 0; i < attributes.length; i += 2) if (!attributes[i]!.startsWith('on')) open.push(attributes[i]!, attributes[i + 1]!);
      out.push(open);
      stack.push(0);
      pushChildren(node);
    }
  }
  return out;
}

/** Rebuilds `tree` inside `parent` with `builder`. A malformed entry is skipped. */
export function graft<N>(tree: PortableTree, parent: N, builder: FormBuilder<N>): void {
  const open: N[] = [parent];
  for (const entry of tree) {
    const current = open[open.length - 1]!;
    if (entry === 0) {
      if (open.length > 1) open.pop();
    } else if (typeof entry === 'string') {
      builder.text(current, entry);
    } else if (Array.isArray(entry)) {
      const attributes = entry.slice(1, entry.length - ((entry.length - 1) % 2)).map(String);
      open.push(builder.create(current, String(entry[0]), attributes));
    }
  }
}
