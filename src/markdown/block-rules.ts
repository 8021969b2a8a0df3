// Rules for block elements that are not lists, tables or code: paragraphs and other plain
// blocks, headings, blockquotes, thematic breaks and hard line breaks.

import { isInlineOnly, MAX_CONTAINER_DEPTH } from './context';
import { asBlock, blockBody, flattenToLine, prefixLines } from './lines';
import { SPACE } from './dom';
import { delimit } from './inline-rules';
import type { Rule } from './walk';

/** Any block without markdown syntax of its own: its content, set apart by blank lines. */
export const plainBlock: Rule = {
  filter: [
    'p',
    'div',
    'section',
    'article',
    'aside',
    'main',
    'header',
    'footer',
    'nav',
    'address',
    'center',
    'figure',
    'figcaption',
    'details',
    'dl',
    'fieldset',
    'legend',
    'form',
    'hgroup',
    'search',
    'caption',
    'body',
    'html',
    'thead',
    'tbody',
    'tfoot',
  ],
  block: true,
  // (The walk adds the blank lines: most of a page's text is in plain blocks.)
  separated: true,
  replacement(content) {
    // Content already carrying its separators is passed on untouched: cheap for deep nesting.
    if (content.startsWith('\n\n') && content.endsWith('\n\n')) return content;
    return blockBody(content);
  },
};

export const heading: Rule = {
  filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  block: true,
  enter(_el, ctx) {
    ctx.headingDepth++;
  },
  replacement(content, el, ctx) {
    ctx.headingDepth--;
    const text = flattenToLine(content);
    const level = Number(el.localName.charAt(1));
    // Inside a link the heading is kept: the link is distributed over its blocks (inline-rules).
    const flat = ctx.cellDepth > 0 || ctx.headingDepth > 0;
    // A heading with no content at all stays a (blank) heading; one whose content vanished does not.
    if (text === '') return el.firstChild === null && !flat ? asBlock('#'.repeat(level)) : '';
    if (flat) return asBlock(text);
    return asBlock(`${'#'.repeat(level)} ${escapeClosingHashes(text)}`);
  },
};

/** A heading's trailing `#` run after a space would be read as its optional closing sequence. */
function escapeClosingHashes(text: string): string {
  let start = text.length;
  while (start > 0 && text.charCodeAt(start - 1) === 35) start--;
  if (start === text.length || (start > 0 && text.charCodeAt(start - 1) !== 32)) return text;
  return `${text.slice(0, start)}\\${text.slice(start)}`;
}

/**
 * A container whose lines carry a prefix (quote, definition). Counts towards the nesting depth;
 * inline-only or nested too deep, its body stays a plain block.
 */
function prefixedContainer(tag: string, render: (body: string) => string): Rule {
  return {
    filter: [tag],
    block: true,
    enter(_el, ctx) {
      ctx.containerDepth++;
    },
    replacement(content, _el, ctx) {
      ctx.containerDepth--;
      const body = blockBody(content);
      if (isInlineOnly(ctx) || ctx.containerDepth >= MAX_CONTAINER_DEPTH) return asBlock(body);
      return render(body);
    },
  };
}

// An empty quote stays a quote (one bare marker).
export const blockquote = prefixedContainer('blockquote', (body) => (body === '' ? asBlock('>') : asBlock(prefixLines(body, '> ', '> '))));

export const thematicBreak: Rule = {
  filter: ['hr'],
  block: true,
  leaf: true,
  replacement(_content, _el, ctx) {
    return isInlineOnly(ctx) ? '' : '\n\n---\n\n';
  },
};

/** Backslash hard breaks survive editors that strip trailing spaces, unlike two-space ones. */
export const lineBreak: Rule = {
  filter: ['br'],
  lineBreak: true,
  leaf: true,
  replacement() {
    return '\\\n';
  },
};

/** A disclosure's label: a bold line of its own (the content follows as ordinary blocks). */
export const summary: Rule = {
  filter: ['summary'],
  block: true,
  replacement(content, _el, ctx) {
    const text = flattenToLine(content);
    if (text === '') return '';
    if (isInlineOnly(ctx)) return asBlock(text);
    return asBlock(delimit(text, '**', SPACE, SPACE) ?? text);
  },
};

/**
 * Definition lists, in the syntax of Pandoc, PHP Markdown Extra and kramdown: the term on its
 * own line, each definition on the next lines after `: `. A CommonMark renderer shows the same
 * lines as one paragraph per group, still readable. Groups are separated by blank lines.
 */
export const definitionTerm: Rule = {
  filter: ['dt'],
  block: true,
  replacement(content, _el, ctx) {
    const text = flattenToLine(content);
    if (text === '') return '';
    return isInlineOnly(ctx) ? asBlock(text) : `\n\n${text}\n`;
  },
};

export const definitionDescription = prefixedContainer('dd', (body) => (body === '' ? '' : `\n${prefixLines(body, ': ', '  ')}\n`));

export const blockRules: readonly Rule[] = [
  plainBlock,
  heading,
  blockquote,
  thematicBreak,
  lineBreak,
  summary,
  definitionTerm,
  definitionDescription,
];
