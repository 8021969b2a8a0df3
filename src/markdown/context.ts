// Per-conversion state, threaded through the walk and the rules. Everything mutable that a
// conversion needs lives here (never in module state), so concurrent conversions in one
// isolate cannot interfere.

import { SPACE } from './dom';
import type { DomElement } from './dom';

export interface ListState {
  readonly ordered: boolean;
  /** Next ordinal for an ordered list. */
  next: number;
  /** `-`/`*` for bullets, `.`/`)` for ordinals; alternates between adjacent lists. */
  readonly delimiter: string;
  /** False past the nesting cap: items become plain blocks. */
  readonly structured: boolean;
  /** Some item holds a `<p>`: items are separated by blank lines (a loose list). */
  readonly loose: boolean;
  /**
   * In a GFM cell, which holds one line: the list is written as inline `<ul>`/`<ol>` HTML
   * (what GitHub renders there), so its items stay items.
   */
  readonly inCell: boolean;
  /** `start` of an ordered list, written on `<ol>` in a cell. */
  readonly start: number;
}

export interface TableCell {
  readonly content: string;
  readonly colspan: number;
  readonly rowspan: number;
}

export interface TableState {
  /** Layout tables (nested tables, a single cell) are rendered as their cells' blocks. */
  readonly layout: boolean;
  readonly rows: TableCell[][];
  caption: string;
}

export interface Context {
  /** Absolute base for links and images (options.url, overridden by `<base href>`). */
  readonly baseUrl: string | undefined;
  /** The next text starts a markdown line (block start, or after a hard break). */
  atLineStart: boolean;
  /** Digits emitted since the line started (they may become an ordinal with the next text), else ''. */
  linePrefix: string;
  /** Last character emitted in document order: a char, SPACE or UNKNOWN (see dom.ts). */
  lastChar: string;
  /** Open lists and blockquotes, for the nesting cap. */
  containerDepth: number;
  /** Columns of list-item indentation every line at this point carries, for the width cap. */
  indentColumns: number;
  /** Open inline elements that emit markup around their content (emphasis, sup/sub/mark). */
  markupDepth: number;
  emDepth: number;
  strongDepth: number;
  strikeDepth: number;
  /** For each open emphasis-like element, the character emitted just before it. */
  readonly emphasisBefore: string[];
  headingDepth: number;
  /** Open table cells that will be rendered as GFM cells (one line, inline only). */
  cellDepth: number;
  /** Destinations of open links; null marks an `<a>` rendered as plain text. */
  readonly links: (string | null)[];
  /** Number of non-null entries in `links`: text inside must keep brackets balanced. */
  linkDepth: number;
  readonly lists: ListState[];
  /** Markers of open list items, pushed on enter and used when the item closes. */
  readonly itemMarkers: string[];
  readonly tables: TableState[];
  /** The list that closed last, so an adjacent list can switch marker and stay separate. */
  lastList: { readonly el: DomElement; readonly delimiter: string } | null;
}

export function createContext(baseUrl: string | undefined): Context {
  return {
    baseUrl,
    atLineStart: true,
    linePrefix: '',
    lastChar: SPACE,
    containerDepth: 0,
    indentColumns: 0,
    markupDepth: 0,
    emDepth: 0,
    strongDepth: 0,
    strikeDepth: 0,
    emphasisBefore: [],
    headingDepth: 0,
    cellDepth: 0,
    links: [],
    linkDepth: 0,
    lists: [],
    itemMarkers: [],
    tables: [],
    lastList: null,
  };
}

/** Inside a construct that holds only inline markdown (GFM cell, heading, link text). */
export function isInlineOnly(ctx: Context): boolean {
  return ctx.cellDepth > 0 || ctx.headingDepth > 0 || ctx.linkDepth > 0;
}

/**
 * Nesting cap for inline markup: deeper emphasis or sup/sub/mark adds nothing a reader sees,
 * and each level re-scans its content (quadratic in the depth without the cap).
 */
export const MAX_MARKUP_DEPTH = 8;

/** Nesting cap for lists and blockquotes: keeps output linear in the input (indentation is per line) and stays under renderers' own nesting limits. */
export const MAX_CONTAINER_DEPTH = 24;

/**
 * Cap on the list indentation a line may carry: each nested item indents every line of its content
 * by its marker's width (up to 11 columns for a 9-digit ordinal), so depth alone does not keep the
 * output linear with a small constant. Deeper lists render flat.
 */
export const MAX_INDENT_COLUMNS = 40;
