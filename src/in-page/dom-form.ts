// The reader form as an inert document, for what needs a real DOM: main-content extraction
// (Readability) and its html output. Nodes are copied with importNode (a clone, no markup parsed): a
// page that enforces Trusted Types refuses HTML strings even from an isolated world. Each copy
// carries its element's computed font size (font-size.ts), which the inert copy cannot compute.
import { recordFontSize } from '../main-content/font-size';
import type { AttributeChanges, FormBuilder } from './reader-form';

/** A new empty document: no scripts run in it, nothing loads, no page script can reach it. */
function inertDocument(source: Document): Document {
  const doc = source.implementation.createHTMLDocument('');
  const lang = source.documentElement?.getAttribute('lang');
  if (lang) doc.documentElement.setAttribute('lang', lang);
  // The document's own base URL, absolute: links keep resolving as they did in the page.
  doc.head.append(Object.assign(doc.createElement('base'), { href: source.baseURI }));
  doc.title = source.title;
  return doc;
}

function applyChanges(copy: Element, changes: AttributeChanges): void {
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) copy.removeAttribute(name);
    else copy.setAttribute(name, value);
  }
}

/** Builds the reader form of `source` in a new inert document. */
export function domBuilder(source: Document): FormBuilder<Node> & { doc: Document } {
  const doc = inertDocument(source);
  return {
    doc,
    body: doc.body,
    text: (parent, data) => {
      parent.appendChild(doc.createTextNode(data));
    },
    copy: (parent, el, changes) => {
      const copy = parent.appendChild(doc.importNode(el, false));
      if (changes !== null) applyChanges(copy, changes);
      recordFontSize(copy, el);
      return copy;
    },
    create: (parent, localName, attributes) => {
      let el: Element;
      try {
        el = doc.createElement(localName);
      } catch {
        el = doc.createElement('div');
      }
      for (let i = 0; i + 1 < attributes.length; i += 2) {
        try {
          el.setAttribute(attributes[i]!, attributes[i + 1]!);
        } catch {
          // Not a valid attribute name: left out.
        }
      }
      return parent.appendChild(el);
    },
    block: (parent) => parent.appendChild(doc.createElement('div')),
    dropIfEmpty: (node) => {
      if (node.firstChild === null) (node as ChildNode).remove();
    },
  };
}
