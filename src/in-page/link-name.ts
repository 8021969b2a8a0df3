// The name the copy of an icon link gets as its `aria-label`: the serializer's rule
// (src/markdown/link-name.ts), resolved in the page, where what `aria-labelledby` points to is looked
// up in the link's own tree (a shadow root or the document) and an SVG icon's `<title>`, which the
// browser lays out nowhere and the reader form therefore leaves out, is still there to read.
import { ariaLabel, iconName } from '../markdown/link-name';

/** The name to give the copy of `link` as its `aria-label`, or null when it needs none. */
export function iconLinkName(link: HTMLAnchorElement): string | null {
  if (ariaLabel(link) !== '') return null;
  const root = link.getRootNode() as Document | ShadowRoot;
  const name = iconName(link, (id) => root.getElementById(id)?.textContent);
  return name === '' ? null : name;
}
