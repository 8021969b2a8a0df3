// The shapes that flow through the conversion: positioned text runs from the PDF, the lines
// built from them, and the block model both renderers read (so markdown and html agree).

/** A piece of text as drawn: page coordinates with the origin at the top left, y = baseline. */
export interface Run {
  text: string;
  x0: number;
  x1: number;
  /** Baseline. */
  y: number;
  size: number;
  href: string | null;
  /** Heading level from the structure tree (0: not tagged as a heading). */
  tag: number;
}

/** Where a piece of text sits on its page (its horizontal span, baseline, top and bottom) and its font size. */
interface Extent {
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
}

/** Runs on one baseline that sit close together: a line of a paragraph or one table cell. */
export interface Segment extends Extent {
  runs: Run[];
}

/** The segments of one baseline inside one column, left to right. */
export interface Line extends Extent {
  segments: Segment[];
  page: number;
  /** Index of the column box the line was read in: a change means a new box. */
  box: number;
  /** Structure-tree heading level of most of the line's text (0: none). */
  tag: number;
}

export interface Inline {
  text: string;
  href: string | null;
}

/** `number` for a numbered item (kept as printed); otherwise `label` is the printed marker to keep (`a.`, `(ii)`), or '' for a bullet. */
export interface ListItem {
  number: number | null;
  label: string;
  content: Inline[];
}

export type Block =
  | { kind: 'heading'; level: number; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: ListItem[] }
  | { kind: 'table'; rows: string[][] };
