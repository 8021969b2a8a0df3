// MathML (docs/api.md "What the rendered page contains", math): a `<math>` element that carries its
// formula as TeX (`<annotation encoding="application/x-tex">`, as Wikipedia and arXiv's HTML do) is
// written once, as `$…$` inline or `$$…$$` on a line of its own for `display="block"`; one without
// TeX is written as its text, the annotations left out (they repeat the formula).

import { oneLine } from '../shared/one-line';
import { isElement, isText, tagOf } from './dom';
import type { DomElement, DomNode } from './dom';
import { escapeText } from './escape';
import { asBlock } from './lines';
import { collapseWhitespace } from './text';
import type { Rule } from './walk';

const ANNOTATIONS = new Set(['annotation', 'annotation-xml']);

/**
 * An annotation holding its formula as TeX: what markdown writes of a formula. The reader form keeps
 * it although the browser renders it nowhere (src/in-page/reader-form.ts).
 */
export const isTexAnnotation = (el: DomElement) =>
  tagOf(el) === 'annotation' && (el.getAttribute('encoding') ?? '').trim().toLowerCase() === 'application/x-tex';

/** The text below `root` in document order, through the elements `enter` lets in (a stack: no depth limit). */
function textBelow(root: DomElement, enter: (el: DomElement) => boolean): string {
  let text = '';
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isElement(node) && (node === root || enter(node))) {
      const children: DomNode[] = [];
      for (let c = node.firstChild; c !== null; c = c.nextSibling) children.push(c);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return text;
}

/** The first TeX annotation below `math` ('' when none). */
function texOf(math: DomElement): string {
  const stack: DomNode[] = [math];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (isTexAnnotation(node)) return textBelow(node, () => true).trim();
    const children: DomNode[] = [];
    for (let c = node.firstChild; c !== null; c = c.nextSibling) children.push(c);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return '';
}

/** The formula's own text: every text node but the annotations'. */
const textOf = (math: DomElement) => collapseWhitespace(textBelow(math, (el) => !ANNOTATIONS.has(tagOf(el)))).trim();

export const math: Rule = {
  filter: ['math'],
  leaf: true,
  replacement(_content, el, ctx) {
    const tex = oneLine(texOf(el));
    if (tex === '') {
      const text = textOf(el);
      return text === ''
        ? ''
        : escapeText(text, { atLineStart: ctx.atLineStart, before: ctx.lastChar, after: '', inLinkText: ctx.linkDepth > 0 });
    }
    return (el.getAttribute('display') ?? '').trim().toLowerCase() === 'block' ? asBlock(`$$${tex}$$`) : `$${tex}$`;
  },
};

export const mathRules: readonly Rule[] = [math];
