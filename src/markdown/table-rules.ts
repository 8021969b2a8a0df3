// Tables: data tables become GFM pipe tables (first row as header, ragged rows padded, cells
// on one line with pipes escaped); layout tables (a nested table, a single cell, or a table whose
// role takes its table semantics away: `presentation` / `none`) become their cells' blocks. Rows are gathered through the context because linkedom has no `.rows`.

import { isInlineOnly } from './context';
import type { Context, TableCell, TableState } from './context';
import { containsTag, isElement, tagOf } from './dom';
import type { DomElement } from './dom';
import { asBlock, blockBody, cellLine, flattenToLine } from './lines';
import { pipeTable } from './pipe-table';
import type { Rule } from './walk';

// HTML caps colspan at 1000; padding beyond a few times the real cell count is refused so the
// output stays proportional to the input.
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;
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

/** ARIA's roles that take an element's own semantics away: such a table lays out, it holds no data. */
function isPresentational(el: DomElement): boolean {
  const role = (el.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0];
  return role === 'presentation' || role === 'none';
}

export const table: Rule = {
  filter: ['table'],
  block: true,
  enter(el, ctx) {
    const layout = isInlineOnly(ctx) || isPresentational(el) || containsTag(el, 'table') || countCells(el, 2) < 2;
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
    const colspan = spanAttribute(el, 'colspan', MAX_COLSPAN);
    const rowspan = spanAttribute(el, 'rowspan', MAX_ROWSPAN);
    state.rows[state.rows.length - 1]?.push({ content: cellText(content), colspan, rowspan });
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

function spanAttribute(el: DomElement, name: string, max: number): number {
  const value = el.getAttribute(name);
  if (value === null) return 1;
  const span = Number.parseInt(value, 10);
  // rowspan="0" means "to the end of the row group": taken as the rest of the table.
  if (span === 0 && name === 'rowspan') return max;
  return Number.isFinite(span) ? Math.min(max, Math.max(1, span)) : 1;
}

/** One line, every pipe escaped: GFM splits cells before any other parsing, even in code spans. */
function cellText(content: string): string {
  const line = cellLine(content);
  return line.includes('|') ? line.replace(/\|/g, '\\|') : line;
}

/**
 * Places the cells on a grid: a cell spanning several columns or rows (colspan/rowspan) puts
 * its content in its top-left slot and leaves the other slots it covers empty, so every
 * other cell stays in its own column (GFM has no spans).
 */
function layoutGrid(rows: readonly TableCell[][]): string[][] {
  const grid: string[][] = [];
  // For each column, how many more rows a rowspan above still covers.
  const covered: number[] = [];
  for (const row of rows) {
    const line: string[] = [];
    let col = 0;
    const skipCovered = (): void => {
      while ((covered[col] ?? 0) > 0) {
        covered[col] = (covered[col] ?? 1) - 1;
        line.push('');
        col++;
      }
    };
    for (const cell of row) {
      skipCovered();
      line.push(cell.content);
      for (let i = 1; i < cell.colspan; i++) line.push('');
      for (let i = 0; i < cell.colspan; i++) covered[col + i] = Math.max(covered[col + i] ?? 0, cell.rowspan - 1);
      col += cell.colspan;
    }
    // Rowspans from above that reach past this row's last cell.
    for (; col < covered.length; col++) {
      if ((covered[col] ?? 0) > 0) {
        covered[col] = (covered[col] ?? 1) - 1;
      }
      line.push('');
    }
    grid.push(line);
  }
  return grid;
}

function renderRows(rows: readonly TableCell[][]): string {
  const filled = rows.filter((row) => row.length > 0);
  if (filled.length === 0) return '';
  let cells = 0;
  let slots = 0;
  for (const row of filled) {
    cells += row.length;
    for (const cell of row) slots += cell.colspan * Math.min(cell.rowspan, filled.length);
  }
  if (slots > PADDING_FACTOR * cells + 64) return raggedFallback(filled);
  const grid = layoutGrid(filled);
  let columns = 0;
  for (const line of grid) columns = Math.max(columns, line.length);
  if (columns * grid.length > PADDING_FACTOR * cells + 64) return raggedFallback(filled);
  return pipeTable(grid);
}

/** Too ragged to pad: one paragraph per row keeps the text without blowing up the output. */
function raggedFallback(rows: readonly TableCell[][]): string {
  return rows
    .map((row) =>
      row
        .map((c) => c.content)
        .filter((c) => c !== '')
        .join(' '),
    )
    .join('\n\n');
}

export const tableRules: readonly Rule[] = [table, tableRow, tableCell, tableCaption];
