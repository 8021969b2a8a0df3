// Reads the loaded page as one HTML string (in-page/serialize-page.js: the DOM with its shadow roots,
// or what a reader sees), in an isolated world the page's scripts cannot tamper with, bounded in size
// and time: an oversized result is refused in the page, before it is shipped over CDP; a page whose
// scripts never yield is given up on; a page that navigates itself while being read is read again on
// its new document, as often as it takes within the time bound (a page that refreshes itself at
// once, forever, has a document to read between two of its navigations).
import type { Page } from '@cloudflare/puppeteer';
import { ApiError, contentTooLarge } from '../errors.js';
import { utf8Length } from '../utf8.js';
import { frameId, pageSession } from './cdp-internals.js';
import SERIALIZE_PAGE_JS from './in-page/serialize-page.js?raw';
import type { Timers } from './timers.js';

/** `html`: the DOM, shadow roots as declarative shadow DOM; `reader`: what a person sees, for markdown. */
export type SerializeMode = 'html' | 'reader';

/** Iframe documents inlined in the reader form at most, and how deeply nested. */
export const MAX_FRAMES = 50;
export const MAX_FRAME_DEPTH = 3;
const WORLD_NAME = 'page-fetch-serialize';

/** How long the page may take to hand over its DOM. */
export const SERIALIZE_TIMEOUT_MS = 10_000;
const NAVIGATED_AWAY =
  /Execution context was destroyed|Cannot find context|navigated or closed|No frame for given id|Frame with the given id/i;
/** Pause before reading again a page that navigated away under the read. */
const REREAD_PAUSE_MS = 20;

interface EvaluateReply {
  result?: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

// The file is one parenthesized function expression; a formatter may end it with a semicolon.
const SERIALIZE_PAGE_FUNCTION = SERIALIZE_PAGE_JS.trim().replace(/;$/, '');

/** One read of the page, in a fresh isolated world of its main frame (a world dies with its document). */
async function readPage(page: Page, mode: SerializeMode, maxChars: number): Promise<unknown> {
  const expression = `(${SERIALIZE_PAGE_FUNCTION})(${JSON.stringify(mode)}, ${maxChars}, ${MAX_FRAMES}, ${MAX_FRAME_DEPTH})`;
  const session = pageSession(page);
  const mainFrameId = frameId(page.mainFrame());
  if (session === undefined || mainFrameId === undefined) throw new Error('the page has no CDP session or frame id to read it through');
  const { executionContextId } = (await session.send('Page.createIsolatedWorld', { frameId: mainFrameId, worldName: WORLD_NAME })) as {
    executionContextId: number;
  };
  const reply = (await session.send('Runtime.evaluate', {
    expression,
    contextId: executionContextId,
    returnByValue: true,
  })) as EvaluateReply;
  if (reply.exceptionDetails !== undefined) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
  return reply.result?.value;
}

/**
 * The page in the given form, with its doctype.
 * @throws ApiError content_too_large over `maxContentBytes`, target_timeout when the page does not yield.
 */
export async function serializePage(page: Page, mode: SerializeMode, maxContentBytes: number, timers: Timers): Promise<string> {
  let stopped = false;
  const attempt = async (): Promise<string> => {
    for (;;) {
      try {
        const html = await readPage(page, mode, maxContentBytes);
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
