// Markdown of a parsed document, whatever DOM holds it: linkedom in the Worker's tests and
// benchmarks (index.ts parses first), the browser's own DOM inside the page (src/in-page).

import { createContext } from './context';
import type { DomDocument } from './dom';
import { blockBody } from './lines';
import { RULES } from './rules';
import { documentBase } from './urls';
import { walk } from './walk';

/** GitHub Flavored Markdown of `doc`, ending with one newline, or '' when it holds nothing. `url`: the page's URL. */
export function documentToMarkdown(doc: DomDocument, url: string | undefined): string {
  const root = doc.documentElement;
  if (!root) return '';
  const ctx = createContext(documentBase(root, url));
  // The walk starts at <html>, not <body>: linkedom's body getter can return an empty new
  // element when stray content precedes <head>; the head itself is dropped by the rules.
  const body = blockBody(walk(root, RULES, ctx));
  return body === '' ? '' : `${body}\n`;
}
