// Line-level reshaping of converted markdown: trimming a block to its body, prefixing the
// lines of a container (list item indentation, blockquote markers) and flattening block
// content onto one line where markdown allows only inline content.

import { isBlank, trimEndBlock, trimStartBlock } from './join';

/** The content without its separator newlines, edge spaces or edge hard breaks. */
export function blockBody(content: string): string {
  const body = trimEndBlock(trimStartBlock(content));
  return isBlank(body) ? '' : body;
}

/** Wraps a non-empty body as a block (blank line before and after). */
export function asBlock(body: string): string {
  return body === '' ? '' : `\n\n${body}\n\n`;
}

/**
 * Prefixes every line: `first` on the first, `rest` on the others. Empty lines get the
 * prefix without its trailing spaces, so no line ends in whitespace.
 */
export function prefixLines(body: string, first: string, rest: string): string {
  const lines = body.split('\n');
  const bareRest = rest.trimEnd();
  const out: string[] = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (i === 0) out[i] = line === '' ? first.trimEnd() : first + line;
    else out[i] = line === '' ? bareRest : rest + line;
  }
  return out.join('\n');
}

/**
 * One line of inline markdown from (possibly block) content: lines are trimmed and joined
 * with spaces, and hard breaks (an odd run of backslashes ending a line) become spaces.
 */
export function flattenToLine(content: string, stripHeadings = false): string {
  if (!content.includes('\n')) return stripHeadings ? stripHeadingMarker(content.trim()) : content.trim();
  const out: string[] = [];
  for (const raw of content.split('\n')) {
    let line = stripHeadings ? stripHeadingMarker(raw.trim()) : raw.trim();
    let run = 0;
    while (run < line.length && line.charCodeAt(line.length - 1 - run) === 92) run++;
    if (run % 2 === 1) line = line.slice(0, -1).trimEnd();
    if (line !== '') out.push(line);
  }
  return out.join(' ');
}

/** A line without its ATX heading marker (`## `), if it has one (a literal `#` is escaped). */
export function stripHeadingMarker(line: string): string {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 35) n++;
  return n > 0 && n <= 6 && line.charCodeAt(n) === 32 ? line.slice(n + 1) : line;
}

/**
 * Content of a GFM table cell: one line; hard breaks and block boundaries (paragraphs, list
 * items) become `<br>`, the usual GFM way of breaking a line inside a cell.
 */
export function cellLine(content: string): string {
  if (!content.includes('\n')) return content.trim();
  // Inside a cell every newline is a hard break or a block boundary (text has none of its own).
  const out: string[] = [];
  for (const raw of content.split('\n')) {
    let line = raw.trim();
    let run = 0;
    while (run < line.length && line.charCodeAt(line.length - 1 - run) === 92) run++;
    if (run % 2 === 1) line = line.slice(0, -1).trimEnd();
    line = stripHeadingMarker(line);
    if (line === '') continue;
    // A list in a cell is a block of its own (`<ul>`/`<ol>`): no line break beside it.
    const previous = out[out.length - 1];
    if (previous !== undefined && (isCellListEdge(line, true) || isCellListEdge(previous, false))) out[out.length - 1] = previous + line;
    else out.push(line);
  }
  return out.join('<br>');
}

/** Whether a cell line opens (`<ul>`, `<ol …>`) or closes (`</ul>`, `</ol>`, `</li>`) a list we wrote. */
function isCellListEdge(line: string, opening: boolean): boolean {
  if (opening) return line.startsWith('<ul>') || line.startsWith('<ol') || line.startsWith('<li>');
  return line.endsWith('</ul>') || line.endsWith('</ol>') || line.endsWith('</li>');
}
