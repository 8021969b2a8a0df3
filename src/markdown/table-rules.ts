// Tables: data tables become GFM pipe tables (first row as header, ragged rows padded, cells
// on one line with pipes escaped); layout tables (a nested table, or a single cell) become
// their cells' blocks. Rows are gathered through the context because linkedom has no `.rows`.

import { isInlineOnly } from './context';
import type { Context, TableCell, TableState } from './context';
import { isElement, tagOf } from './dom';
import type { DomElement } from './dom';
import { asBlock, blockBody, flattenToLine } from './lines';
import type { Rule } from './walk';

// HTML caps colspan at 1000; padding beyond a few times the real cell count is refused so the
// output stays proportional to the input.
const MAX_COLSPAN = 1000;
const PADDING_FACTOR = 4;

/** Up to two cells found by a shallow scan (rows may sit in thead/tbody/tfoot). */
function countCells(table: DomElement, limit: number): number {
  let count = 0;
  const scan = (parent: DomElement, depth: number): void => {
    for (let c = parent.firstChild; c !== null && count < limit; c = c.nextSibling) {
      if (!isElement(c)) continue;
      const tag = tagOf(c);
      if (tag === 'td' || tag === 'th') count++;
      else if (depth < 2 && (tag === 'tr' || tag === 'thead' || tag === 'tbody' || tag === 'tfoot')) scan(c, depth + 1);
    }
  };
  scan(table, 0);
  return count;
}

function currentTable(ctx: Context): TableState | undefined {
  return ctx.tables[ctx.tables.length - 1];
}

export const table: Rule = {
  filter: ['table'],
  block: true,
  enter(el, ctx) {
    const layout = isInlineOnly(ctx) || el.querySelector('table') !== null || countCells(el, 2) < 2;
    ctx.tables.push({ layout, rows: [], caption: '' });
  },
  replacement(content, _el, ctx) {
    const state = ctx.tables.pop();
    if (state === undefined || state.layout) return asBlock(blockBody(content));
    const caption = state.caption === '' ? '' : `${state.caption}\n\n`;
    const rendered = renderRows(state.rows);
    if (rendered === '') return asBlock(state.caption);
    return asBlock(caption + rendered);
  },
};

export const tableRow: Rule = {
  filter: ['tr'],
  block: true,
  enter(_el, ctx) {
    const state = currentTable(ctx);
    if (state && !state.layout) state.rows.push([]);
  },
  replacement(content, _el, ctx) {
    const state = currentTable(ctx);
    return state && !state.layout ? '' : asBlock(blockBody(content));
  },
};

export const tableCell: Rule = {
  filter: ['td', 'th'],
  block: true,
  enter(_el, ctx) {
    const state = currentTable(ctx);
    if (state && !state.layout) ctx.cellDepth++;
  },
  replacement(content, el, ctx) {
    const state = currentTable(ctx);
    if (!state || state.layout) return asBlock(blockBody(content));
    ctx.cellDepth--;
    if (state.rows.length === 0) state.rows.push([]);
    const span = Number.parseInt(el.getAttribute('colspan') ?? '1', 10);
    const colspan = Number.isFinite(span) ? Math.min(MAX_COLSPAN, Math.max(1, span)) : 1;
    state.rows[state.rows.length - 1]?.push({ content: cellText(content), colspan });
    return '';
  },
};

export const tableCaption: Rule = {
  filter: ['caption'],
  block: true,
  replacement(content, _el, ctx) {
    const state = currentTable(ctx);
    if (!state || state.layout) return asBlock(blockBody(content));
    state.caption = flattenToLine(content);
    return '';
  },
};

/** One line, every pipe escaped: GFM splits cells before any other parsing, even in code spans. */
function cellText(content: string): string {
  return flattenToLine(content).replace(/\|/g, '\\|');
}

function renderRows(rows: readonly TableCell[][]): string {
  const filled = rows.filter((row) => row.length > 0);
  if (filled.length === 0) return '';
  let columns = 0;
  let cells = 0;
  for (const row of filled) {
    let width = 0;
    for (const cell of row) width += cell.colspan;
    columns = Math.max(columns, width);
    cells += row.length;
  }
  if (columns * filled.length > PADDING_FACTOR * cells + 64) {
    // Too ragged to pad: one paragraph per row keeps the text without blowing up the output.
    return filled.map((row) => row.map((c) => c.content).filter((c) => c !== '').join(' ')).join('\n\n');
  }
  const lines = filled.map((row) => renderRow(row, columns));
  const delimiterRow = `|${' --- |'.repeat(columns)}`;
  return [lines[0], delimiterRow, ...lines.slice(1)].join('\n');
}

function renderRow(row: readonly TableCell[], columns: number): string {
  const out: string[] = [];
  for (const cell of row) {
    out.push(cell.content);
    for (let i = 1; i < cell.colspan; i++) out.push('');
  }
  while (out.length < columns) out.push('');
  return `| ${out.join(' | ')} |`;
}

export const tableRules: readonly Rule[] = [table, tableRow, tableCell, tableCaption];
