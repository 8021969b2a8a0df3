// The name of a link a reader sees only as an icon, where the name is not in an attribute the
// markdown serializer reads on its own: the text of the elements `aria-labelledby` points to
// (looked up in the link's own tree: a shadow root or the document) or an SVG icon's `<title>`,
// which the browser lays out nowhere and the reader form therefore leaves out.

/** Long enough for any real label; a page cannot make a link's name swallow the output. */
const MAX_NAME_LENGTH = 300;

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH);
}

function labelledByText(link: Element, ids: string): string {
  const root = link.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (const id of ids.split(/\s+/).slice(0, 8)) {
    if (id === '') continue;
    const target = root.getElementById(id);
    const text = clean(target?.textContent);
    if (text !== '') parts.push(text);
  }
  return clean(parts.join(' '));
}

/** The name to give the copy of `link` as its `aria-label`, or null when it needs none. */
export function iconLinkName(link: HTMLAnchorElement): string | null {
  if (clean(link.getAttribute('aria-label')) !== '') return null;
  const ids = link.getAttribute('aria-labelledby');
  if (ids !== null) {
    const name = labelledByText(link, ids);
    if (name !== '') return name;
  }
  const title = link.querySelector('svg > title');
  if (title === null || hasTextOutsideSvg(link)) return null;
  const name = clean(title.textContent);
  return name === '' ? null : name;
}

/** Whether the link has text of its own (an SVG's title and text are the icon's, not the link's). */
function hasTextOutsideSvg(link: Element): boolean {
  const walker = link.ownerDocument.createTreeWalker(link, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if ((node.nodeValue ?? '').trim() !== '' && node.parentElement?.closest('svg') === null) return true;
  }
  return false;
}
