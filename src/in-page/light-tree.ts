// The reader form of a whole-page markdown read, as plain objects instead of a second DOM. The
// serializer reads only a small slice of the DOM (src/markdown/dom.ts); building that slice as JS
// objects skips what copying into an inert document costs the browser (a C++ node and its wrapper
// per element, every attribute copied), and walking it skips a binding call per step. An element's
// attributes are read from the page's own element when the serializer asks, in the same task; a
// form that has to wait (for its cross-origin frames) copies them first (`detach`).
import { ELEMENT_NODE, TEXT_NODE } from '../markdown/dom';
import type { AttributeChanges, FormBuilder } from './reader-form';

export class LightNode {
  parentNode: LightNode | null = null;
  firstChild: LightNode | null = null;
  lastChild: LightNode | null = null;
  nextSibling: LightNode | null = null;
  previousSibling: LightNode | null = null;

  constructor(
    readonly nodeType: number,
    /** An element's name; '' for text. */
    readonly localName: string,
    /** A text node's text; '' for an element. */
    readonly data: string,
    /** The page's element whose attributes this one has, until detached. */
    private source: Element | null,
    /** Own attributes, name then value; read instead of `source` once set. */
    private attributes: string[] | null,
  ) {}

  getAttribute(name: string): string | null {
    const own = this.attributes;
    if (own === null) return this.source === null ? null : this.source.getAttribute(name);
    for (let i = 0; i < own.length; i += 2) if (own[i] === name) return own[i + 1]!;
    return null;
  }

  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }

  /** The attributes, name then value. */
  attributePairs(): string[] {
    return this.attributes ?? (this.source === null ? [] : attributesOf(this.source, null));
  }

  /** Copies the attributes in, so the node no longer reads the page's element. */
  detach(): void {
    if (this.attributes === null && this.source !== null) this.attributes = attributesOf(this.source, null);
    this.source = null;
  }

  /** Unlinks the node from its parent. */
  remove(): void {
    const parent = this.parentNode;
    if (parent === null) return;
    if (this.previousSibling === null) parent.firstChild = this.nextSibling;
    else this.previousSibling.nextSibling = this.nextSibling;
    if (this.nextSibling === null) parent.lastChild = this.previousSibling;
    else this.nextSibling.previousSibling = this.previousSibling;
    this.parentNode = this.previousSibling = this.nextSibling = null;
  }

  append<T extends LightNode>(child: T): T {
    child.parentNode = this;
    child.previousSibling = this.lastChild;
    if (this.lastChild === null) this.firstChild = child;
    else this.lastChild.nextSibling = child;
    this.lastChild = child;
    return child;
  }
}

/** The element's attributes, name then value, with `changes` applied (null: removed). */
function attributesOf(el: Element, changes: AttributeChanges | null): string[] {
  const out: string[] = [];
  const { attributes } = el;
  for (let i = 0; i < attributes.length; i++) {
    const { name, value } = attributes[i]!;
    if (changes === null || !(name in changes)) out.push(name, value);
  }
  if (changes !== null) {
    for (const [name, value] of Object.entries(changes)) if (value !== null) out.push(name, value);
  }
  return out;
}

const element = (localName: string, source: Element | null, attributes: string[] | null) =>
  new LightNode(ELEMENT_NODE, localName, '', source, attributes);
const text = (data: string) => new LightNode(TEXT_NODE, '', data, null, null);

export interface LightDocument {
  readonly documentElement: LightNode;
}

/** Builds the reader form of `source` as light nodes: `<html>` with a `<head>` holding the base URL, and a `<body>`. */
export function lightBuilder(source: Document): FormBuilder<LightNode> & { doc: LightDocument } {
  const lang = source.documentElement?.getAttribute('lang');
  const html = element('html', null, lang ? ['lang', lang] : []);
  // The document's own base URL, absolute: links keep resolving as they did in the page.
  html.append(element('head', null, [])).append(element('base', null, ['href', source.baseURI]));
  const body = html.append(element('body', null, []));
  return {
    doc: { documentElement: html },
    body,
    text: (parent, data) => {
      parent.append(text(data));
    },
    copy: (parent, el, changes) =>
      parent.append(element(el.localName, changes === null ? el : null, changes === null ? null : attributesOf(el, changes))),
    create: (parent, localName, attributes) => parent.append(element(localName, null, attributes)),
    block: (parent) => parent.append(element('div', null, [])),
    dropIfEmpty: (node) => {
      if (node.firstChild === null) node.remove();
    },
  };
}

/** Detaches every element of the tree from the page (an explicit stack: the depth is the page's). */
export function detachTree(root: LightNode): void {
  const stack: LightNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.detach();
    for (let child = node.firstChild; child !== null; child = child.nextSibling) stack.push(child);
  }
}
