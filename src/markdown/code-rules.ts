// Code: `<pre>` becomes a fenced block that keeps its text byte for byte (highlighter spans
// are flattened to their text); `<code>`, `<kbd>`, `<samp>`, `<tt>` become code spans. Fences
// and span delimiters are always longer than any backtick run inside.

import { isInlineOnly } from './context';
import type { Context } from './context';
import { escapeText } from './escape';
import { formatDestination, isScriptUrl, resolveUrl } from './urls';
import { isBlockTag, isDroppedTag, isElement, isHidden, isText, tagOf } from './dom';
import type { DomElement, DomNode } from './dom';
import { collapseWhitespace } from './text';
import type { Rule } from './walk';

/** A link found inside preformatted text: markdown code cannot hold links. */
export interface PreLink {
  readonly text: string;
  readonly href: string;
}

interface LinkEnd {
  readonly href: string;
  readonly start: number;
}

/**
 * Text of a subtree as a `<pre>` shows it: `<br>` and block children end lines. When `links`
 * is given, the `a[href]` inside are collected into it (text and raw href).
 */
export function preformattedText(root: DomElement, links?: PreLink[]): string {
  const out: string[] = [];
  // Iterative pre-order walk; `null` entries mark the end of a block element, LinkEnd entries
  // the end of a link.
  const stack: (DomNode | LinkEnd | null)[] = [];
  for (let c = lastChildOf(root); c !== null; c = c.previousSibling) stack.push(c);
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    if (node === null) {
      if (out.length > 0 && !(out[out.length - 1] ?? '').endsWith('\n')) out.push('\n');
      continue;
    }
    if (!('nodeType' in node)) {
      links?.push({ text: out.slice(node.start).join(''), href: node.href });
      continue;
    }
    if (isText(node)) {
      out.push(node.data);
    } else if (isElement(node)) {
      const tag = tagOf(node);
      if (tag === 'br') out.push('\n');
      else if (isDroppedTag(tag) || isHidden(node)) continue;
      if (isBlockTag(tag)) stack.push(null);
      if (links !== undefined && tag === 'a') {
        const href = node.getAttribute('href');
        if (href !== null) stack.push({ href, start: out.length });
      }
      for (let c = lastChildOf(node); c !== null; c = c.previousSibling) stack.push(c);
    }
  }
  return out.join('');
}

function lastChildOf(node: DomNode): DomNode | null {
  let child = node.firstChild;
  if (child === null) return null;
  while (child.nextSibling !== null) child = child.nextSibling;
  return child;
}

/** Length of the longest run of `ch` in `text`. */
function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charAt(i) === ch) {
      run++;
      if (run > best) best = run;
    } else {
      run = 0;
    }
  }
  return best;
}

/** A code span; padded when the content would otherwise lose or merge its edge characters. */
export function codeSpan(text: string): string {
  if (text === '') return '';
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const allSpaces = text.trim() === '' && !text.includes('\u00a0');
  const pad = !allSpaces && (text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' '))) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

// Info strings of backtick fences cannot contain backticks.
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([^\s`]+)/;
const LANGUAGE_NAME = /^[^\s`]+$/;

/** The language `el` names: a `language-…`/`lang-…` class, else a one-word `data-lang` ('' when neither). */
function namedLanguage(el: DomElement): string {
  const fromClass = LANGUAGE_CLASS.exec(el.getAttribute('class') ?? '')?.[1];
  if (fromClass) return fromClass;
  const fromData = (el.getAttribute('data-lang') ?? '').trim();
  return LANGUAGE_NAME.test(fromData) ? fromData : '';
}

/** A code block's language: its `<code>`'s first, then the block's own. */
function languageOf(pre: DomElement): string {
  for (let c = pre.firstChild; c !== null; c = c.nextSibling) {
    if (isElement(c) && tagOf(c) === 'code') {
      const language = namedLanguage(c);
      if (language !== '') return language;
    }
  }
  return namedLanguage(pre);
}

export const codeBlock: Rule = {
  filter: ['pre', 'listing', 'xmp', 'plaintext'],
  block: true,
  leaf: true,
  replacement(_content, el, ctx) {
    const links: PreLink[] = [];
    let text = preformattedText(el, links);
    // The HTML parser drops a newline right after `<pre>` (linkedom keeps it); a newline at the
    // start of an inner `<code>` is content. A closing fence needs no newline before it.
    const first = el.firstChild;
    if (isText(first) && first.data.charCodeAt(0) === 10) text = text.slice(1);
    if (text.endsWith('\n')) text = text.slice(0, -1);
    if (isInlineOnly(ctx)) return text.trim() === '' ? '' : codeSpan(collapseWhitespace(text).trim());
    const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
    // An empty block keeps its fences: it is still a code block.
    const block = `\n\n${fence}${languageOf(el)}\n${text === '' ? '' : `${text}\n`}${fence}\n\n`;
    if (links.length === 0) return block;
    const list = linkList(links, ctx);
    return list === '' ? block : `${block.slice(0, -2)}${list}`;
  },
};

/**
 * Links inside preformatted text (hyperlinked plain-text documents such as RFCs) would be
 * lost in a code block: they follow it as a list, in order, one item per link.
 */
function linkList(links: readonly PreLink[], ctx: Context): string {
  const items: string[] = [];
  for (const l of links) {
    const url = resolveUrl(l.href, ctx.baseUrl);
    const text = collapseWhitespace(l.text).trim();
    if (text === '' || isScriptUrl(url)) continue;
    const label = escapeText(text, { atLineStart: false, before: '[', after: ']', inLinkText: true });
    items.push(`- [${label}](${formatDestination(url)})`);
  }
  return items.length === 0 ? '' : `\n\n${items.join('\n')}\n\n`;
}

export const inlineCode: Rule = {
  filter: ['code', 'kbd', 'samp', 'tt'],
  leaf: true,
  replacement(_content, el) {
    return codeSpan(collapseWhitespace(preformattedText(el)));
  },
};

export const codeRules: readonly Rule[] = [codeBlock, inlineCode];
