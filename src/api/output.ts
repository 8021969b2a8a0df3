// Turns a rendered page into the response content for the requested format. HTML is the browser's
// serialized DOM as is, and markdown of an HTML page was made in the page (src/in-page); for
// documents the browser only displays as text (plain text, JSON, XML) the text itself is the useful
// markdown: plain text as is, JSON and XML in a fenced code block. Pure: no Workers or puppeteer APIs.
import { parseHTML } from 'linkedom';
import type { ContentForm } from '../browser/index.js';
import { documentKind } from '../shared/content-type.js';
import type { OutputFormat } from './fetch-request.js';

export interface PageForOutput {
  content: string;
  form: ContentForm;
  headers: Record<string, string>;
}

/** Chrome shows a text document as `<pre>` text inside an HTML shell; this is that text. */
function displayedText(html: string): string {
  const { document } = parseHTML(html);
  const pre = document.querySelector('pre');
  return (pre ?? document.documentElement)?.textContent ?? '';
}

function fenced(text: string, language: string): string {
  let longestRun = 2;
  for (const match of text.matchAll(/`+/g)) longestRun = Math.max(longestRun, match[0].length);
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n`;
}

export function renderContent(page: PageForOutput, format: OutputFormat): string {
  if (format === page.form) return page.content;
  switch (documentKind(page.headers['content-type'])) {
    case 'json':
      return fenced(displayedText(page.content), 'json');
    case 'xml':
      return fenced(page.content, 'xml');
    case 'text':
      return displayedText(page.content);
    default:
      // The browser side makes the markdown of every HTML document; HTML here would be a bug upstream.
      throw new Error(`an HTML page came back as ${page.form} for ${format} output`);
  }
}

export function contentTypeFor(format: OutputFormat): string {
  return format === 'html' ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
}
