// An extract for the cleaning rules' unit tests: markup parsed by linkedom, as the rules would get
// it from Readability, and the globals the rules find in the page (Node, NodeFilter) set to
// linkedom's while a test runs.
import { parseHTML } from 'linkedom';
import { afterEach, beforeEach, vi } from 'vitest';

/** Sets the page's globals the rules read to linkedom's for every test of the calling file. */
export function withDomGlobals(): void {
  beforeEach(() => {
    const { Node, NodeFilter } = parseHTML('') as unknown as { Node: unknown; NodeFilter: unknown };
    vi.stubGlobal('Node', Node);
    vi.stubGlobal('NodeFilter', NodeFilter ?? { SHOW_TEXT: 4 });
  });
  afterEach(() => vi.unstubAllGlobals());
}

/** The extract's root: a `<div>` holding `markup`, in a document of its own. */
export function extractOf(markup: string): Element {
  const { document } = parseHTML(`<!DOCTYPE html><html><body><div id="extract">${markup}</div></body></html>`);
  return document.getElementById('extract') as unknown as Element;
}

/** The extract's text as one line, for asserting what stays and what goes. */
export const textOf = (root: Element) => (root.textContent ?? '').replace(/\s+/g, ' ').trim();
