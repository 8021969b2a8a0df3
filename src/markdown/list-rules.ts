// Lists: `-` bullets and `1.` ordinals (keeping `start`), each item's continuation lines
// indented to its marker's width as CommonMark requires. Adjacent lists alternate markers
// (`-`/`*`, `.`/`)`) so they stay separate lists instead of merging into one.

import { isInlineOnly, MAX_CONTAINER_DEPTH, MAX_INDENT_COLUMNS } from './context';
import type { Context, ListState } from './context';
import { isElement, isText } from './dom';
import type { DomElement } from './dom';
import { asBlock, blockBody, cellLine, prefixLines } from './lines';
import type { Rule } from './walk';

// CommonMark ordinals have at most 9 digits.
const MAX_ORDINAL = 999_999_999;

function parseOrdinal(value: string | null): number | undefined {
  if (value === null || !/^\s*-?\d{1,12}\s*$/.test(value)) return undefined;
  return Math.min(MAX_ORDINAL, Math.max(0, Number(value)));
}

/** The element just before `el`, ignoring whitespace and comments. */
function previousElement(el: DomElement): DomElement | null {
  for (let node = el.previousSibling, steps = 0; node !== null && steps < 16; node = node.previousSibling, steps++) {
    if (isElement(node)) return node;
    if (isText(node) && node.data.trim() !== '') return null;
  }
  return null;
}

/** A list whose items hold paragraphs renders loose (`<li><p>`); otherwise tight. */
function hasParagraphItem(list: DomElement): boolean {
  for (let li = list.firstChild; li !== null; li = li.nextSibling) {
    if (!isElement(li) || li.localName !== 'li') continue;
    for (let c = li.firstChild; c !== null; c = c.nextSibling) {
      if (isElement(c) && c.localName === 'p') return true;
    }
  }
  return false;
}

function openList(el: DomElement, ctx: Context): ListState {
  const ordered = el.localName === 'ol';
  const adjacent = ctx.lastList !== null && previousElement(el) === ctx.lastList.el;
  const [usual, other] = ordered ? ['.', ')'] : ['-', '*'];
  const delimiter = adjacent && ctx.lastList?.delimiter === usual ? (other as string) : (usual as string);
  const structured = ctx.containerDepth < MAX_CONTAINER_DEPTH && ctx.indentColumns < MAX_INDENT_COLUMNS && !isInlineOnly(ctx);
  const loose = structured && hasParagraphItem(el);
  const inCell = isCellContent(ctx);
  const start = ordered ? (parseOrdinal(el.getAttribute('start')) ?? 1) : 1;
  return { ordered, next: start, delimiter, structured, loose, inCell, start };
}

/** Directly in a GFM cell: not inside a link or heading there, which hold text only. */
function isCellContent(ctx: Context): boolean {
  return ctx.cellDepth > 0 && ctx.linkDepth === 0 && ctx.headingDepth === 0;
}

function cellListOpening(state: ListState): string {
  if (!state.ordered) return '<ul>';
  return state.start === 1 ? '<ol>' : `<ol start="${state.start}">`;
}

export const list: Rule = {
  filter: ['ul', 'ol', 'menu', 'dir'],
  block: true,
  enter(el, ctx) {
    ctx.lists.push(openList(el, ctx));
    ctx.containerDepth++;
  },
  replacement(content, el, ctx) {
    ctx.containerDepth--;
    const state = ctx.lists.pop();
    if (state === undefined) return asBlock(blockBody(content));
    ctx.lastList = { el, delimiter: state.delimiter };
    const body = blockBody(content);
    if (body === '') return '';
    if (state.inCell) return asBlock(`${cellListOpening(state)}${body.replace(/\n+/g, '')}${state.ordered ? '</ol>' : '</ul>'}`);
    const parent = el.parentNode;
    // Directly inside an item, a list may follow the item's text on the next line (a tight
    // list) — except an ordered list not starting at 1, which cannot interrupt a paragraph.
    const inItem = isElement(parent) && parent.localName === 'li' && state.structured;
    const tight = inItem && (!state.ordered || body.startsWith('1.') || body.startsWith('1)'));
    return tight ? `\n${body}\n\n` : asBlock(body);
  },
};

/**
 * Whether an item that converted to nothing held anything: a truly empty `<li></li>` keeps its
 * marker (the list's shape is content, and it round-trips), an item whose content was all left out
 * (an icon link with no name, an empty icon element) is left out with it: a bare marker tells a
 * reader nothing.
 */
function heldContent(el: DomElement): boolean {
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child) || (isText(child) && child.data.trim() !== '')) return true;
  }
  return false;
}

function isThematicBreakOf(body: string, ch: string): boolean {
  return (ch === '-' || ch === '*') && body.startsWith(ch.repeat(3)) && (body.length === 3 || body.charAt(3) === '\n');
}

export const listItem: Rule = {
  filter: ['li'],
  block: true,
  enter(el, ctx) {
    const state = ctx.lists[ctx.lists.length - 1];
    if (state === undefined) {
      ctx.itemMarkers.push(isInlineOnly(ctx) ? '' : '- ');
      return;
    }
    if (!state.structured) {
      // In a GFM cell an item becomes `<li>…</li>` (see ListState.inCell).
      ctx.itemMarkers.push(state.inCell ? '<li>' : '');
      return;
    }
    let marker = `${state.delimiter} `;
    if (state.ordered) {
      const ordinal = parseOrdinal(el.getAttribute('value')) ?? state.next;
      state.next = Math.min(MAX_ORDINAL, ordinal + 1);
      marker = `${ordinal}${state.delimiter} `;
    }
    ctx.indentColumns += marker.length;
    ctx.itemMarkers.push(marker);
  },
  tightJoin(_el, ctx) {
    const state = ctx.lists[ctx.lists.length - 1];
    return state?.structured === true && !state.loose;
  },
  replacement(content, el, ctx) {
    const marker = ctx.itemMarkers.pop() ?? '';
    const state = ctx.lists[ctx.lists.length - 1];
    if (state?.structured === true) ctx.indentColumns -= marker.length;
    let body = blockBody(content);
    if (marker === '') return asBlock(body);
    if (marker === '<li>') return body === '' ? '' : asBlock(`<li>${cellLine(body)}</li>`);
    const sep = state?.loose === true ? '\n\n' : '\n';
    if (body === '' && heldContent(el)) {
      // The next item takes this one's number (one given by `value` stays the item's own).
      if (state?.ordered === true && parseOrdinal(el.getAttribute('value')) === undefined) state.next--;
      return '';
    }
    // An empty item keeps its marker: the list's shape (and numbering) is content too.
    if (body === '') return `${sep}${marker.trimEnd()}${sep}`;
    // `- ---` would read as one thematic break: the item's rule uses another character.
    if (isThematicBreakOf(body, marker.charAt(0)) || isThematicBreakOf(body, marker.charAt(marker.length - 2))) {
      body = `___${body.slice(3)}`;
    }
    return `${sep}${prefixLines(body, marker, ' '.repeat(marker.length))}${sep}`;
  },
};

export const listRules: readonly Rule[] = [list, listItem];
