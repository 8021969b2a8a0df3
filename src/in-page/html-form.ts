// html output: the DOM as it stands, with its doctype; every open shadow root written as
// declarative shadow DOM (<template shadowrootmode>, as Element.getHTML() writes it), so the HTML
// parses back with its shadow content. A page without shadow roots is written by outerHTML.

import { openShadowRoots } from './open-shadow-roots';

export const doctypeOf = (doc: Document) => (doc.doctype ? new XMLSerializer().serializeToString(doc.doctype) : '');

function startTag(el: Element): string {
  let out = `<${el.localName}`;
  for (const attr of el.attributes)
    out += ` ${attr.name}="${attr.value
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/\u00a0/g, '&nbsp;')}"`;
  return `${out}>`;
}

export function htmlForm(doc: Document): string {
  const root = doc.documentElement;
  if (!root) return doctypeOf(doc);
  const roots = openShadowRoots(root);
  if (roots.length === 0) return doctypeOf(doc) + root.outerHTML;
  return `${doctypeOf(doc)}${startTag(root)}${root.getHTML({ serializableShadowRoots: true, shadowRoots: roots })}</html>`;
}
