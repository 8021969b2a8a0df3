// Public entry of the HTML→markdown serializer: parse with linkedom, walk the DOM once with
// the rule table (convert.ts), return GitHub Flavored Markdown. Pure (no Workers or Node APIs) and total:
// any string in, markdown out — trimmed, ending with exactly one newline, or '' when empty.
//
// Where markdown has no form for a construct, the documented fallbacks are:
// - rowspan/colspan: the cell's content in its top-left slot, covered slots left empty;
// - lists, paragraphs and <br> inside a GFM cell: `<br>`-separated lines, items keep a
//   plain-text `- ` / `1. ` bullet; a table holding a table (or one cell) is layout: blocks;
// - links inside <pre>: listed after the code block, which keeps its exact text;
// - a link around one text block (a card) becomes `## [Heading](url)`; around several text
//   blocks it stays one link on one line;
// - <sup>, <sub>, <mark>: kept as those inline tags (a <sup> holding only a link stays a link);
//   <kbd>, <samp>, <code>: code spans; <dl>: `Term` then `: definition` lines;
//   <summary>: a bold line; <figure>/<figcaption>: image then caption paragraph;
// - an image whose only source is a data: URL: its alt text.

import { parseHTML } from 'linkedom';
import { documentToMarkdown } from './convert';
import type { DomDocument } from './dom';

export interface HtmlToMarkdownOptions {
  /** URL of the page: relative links and images are made absolute against it (and `<base href>`). */
  url?: string;
}

/** Whether the markup is a whole document (`<html>` first, after a doctype or comments). */
function isFullDocument(html: string): boolean {
  let i = 0;
  for (;;) {
    while (i < html.length && /[\s\uFEFF]/.test(html.charAt(i))) i++;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else if (html.charAt(i) === '<' && html.charAt(i + 1) === '!') {
      const end = html.indexOf('>', i);
      if (end < 0) return false;
      i = end + 1;
    } else {
      return /^<html[\s>]/i.test(html.slice(i, i + 6));
    }
  }
}

function parse(html: string): DomDocument {
  // linkedom makes a fragment's first element the document element and loses its siblings,
  // so anything that is not a whole document is parsed inside a document shell.
  const markup = isFullDocument(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  return parseHTML(markup).document as unknown as DomDocument;
}

export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  try {
    const source = typeof html === 'string' ? html : String(html ?? '');
    if (source.trim() === '') return '';
    return documentToMarkdown(parse(source), options.url);
  } catch {
    // Never throw on input; a parser failure on pathological markup yields no markdown.
    return '';
  }
}
