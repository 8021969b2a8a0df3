// The open shadow roots below a node, nested ones included, in document order: what "the document
// and its open shadow roots" means wherever a read or a wait searches the page.

export function openShadowRoots(root: Node, found: ShadowRoot[] = []): ShadowRoot[] {
  const walker = (root.ownerDocument ?? (root as Document)).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const shadow = (node as Element).shadowRoot;
    if (shadow) {
      found.push(shadow);
      openShadowRoots(shadow, found);
    }
  }
  return found;
}
