// Reads the loaded page's DOM as one HTML string, bounded in size and time: an oversized DOM is
// refused in the page, before it is shipped over CDP; a page whose scripts never yield is given up
// on; a page that navigates itself while being read is read again on its new document, as often as
// it takes within the time bound (a page that refreshes itself at once, forever, has a document to
// read between two of its navigations).
import type { Page } from '@cloudflare/puppeteer';
import { ApiError, contentTooLarge } from '../errors.js';
import { utf8Length } from '../utf8.js';
import type { Timers } from './timers.js';

/** How long the page may take to hand over its DOM. */
export const SERIALIZE_TIMEOUT_MS = 10_000;
const NAVIGATED_AWAY = /Execution context was destroyed|Cannot find context|navigated or closed/i;
/** Pause before reading again a page that navigated away under the read. */
const REREAD_PAUSE_MS = 20;

// Runs in the page: doctype + DOM in one pass, or null when longer than the limit. A string, since
// `document` is the page's.
const serializeExpression = (maxChars: number) => `(() => {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const html = doctype + (document.documentElement ? document.documentElement.outerHTML : '');
  return html.length > ${maxChars} ? null : html;
})()`;

/**
 * The page's DOM with its doctype.
 * @throws ApiError content_too_large over `maxContentBytes`, target_timeout when the page does not yield.
 */
export async function serializePage(page: Page, maxContentBytes: number, timers: Timers): Promise<string> {
  let stopped = false;
  const attempt = async (): Promise<string> => {
    for (;;) {
      try {
        const html: unknown = await page.evaluate(serializeExpression(maxContentBytes));
        if (typeof html !== 'string' || utf8Length(html) > maxContentBytes) throw contentTooLarge(maxContentBytes);
        return html;
      } catch (error) {
        // The page navigated itself between our wait and this read: read the new document.
        if (stopped || !(error instanceof Error) || !NAVIGATED_AWAY.test(error.message)) throw error;
        await timers.after(REREAD_PAUSE_MS, undefined);
      }
    }
  };
  const stuck = timers.after(SERIALIZE_TIMEOUT_MS, 'stuck' as const).then((value) => {
    stopped = true;
    return value;
  });
  const result = await Promise.race([attempt(), stuck]);
  if (result === 'stuck') {
    throw new ApiError('target_timeout', 'The page stopped responding while its content was read (a script may never yield).');
  }
  return result;
}
