// Reads the loaded page as one HTML string (in-page/serialize-page.js: the DOM with its shadow roots,
// or what a reader sees), in an isolated world the page's scripts cannot tamper with, bounded in size
// and time: an oversized result is refused in the page, before it is shipped over CDP; a page whose
// scripts never yield is given up on; a page that navigates itself while being read is read again on
// its new document, as often as it takes within the time bound (a page that refreshes itself at
// once, forever, has a document to read between two of its navigations).
import type { CDPSession, Frame, Page } from '@cloudflare/puppeteer';
import { ApiError, contentTooLarge } from '../errors.js';
import { utf8Length } from '../utf8.js';
import { frameId, frameSession } from './cdp-internals.js';
import SERIALIZE_PAGE_JS from './in-page/serialize-page.js?raw';
import { registerChildFrames, stitchRemoteFrames } from './remote-frames.js';
import type { Timers } from './timers.js';

/** `html`: the DOM, shadow roots as declarative shadow DOM; `reader`: what a person sees, for markdown. */
export type SerializeMode = 'html' | 'reader';

/** Iframe documents inlined in the reader form at most (same-origin per document, cross-origin per page), and how deeply nested. */
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

/** How long one cross-origin frame may take to be read; a frame slower than that is left out. */
export const FRAME_READ_TIMEOUT_MS = 2000;

type ReadMode = SerializeMode | 'reader-frame';

interface ReadContext {
  maxChars: number;
  /** Cross-origin frames that may still be read, for the whole page. */
  framesLeft: { count: number };
  timers: Timers;
}

async function evaluateIn(session: CDPSession, contextId: number, mode: ReadMode, maxChars: number, depthLeft: number): Promise<unknown> {
  const args = [JSON.stringify(mode), maxChars, MAX_FRAMES, depthLeft].join(', ');
  const reply = (await session.send('Runtime.evaluate', {
    expression: `(${SERIALIZE_PAGE_FUNCTION})(${args})`,
    contextId,
    returnByValue: true,
  })) as EvaluateReply;
  if (reply.exceptionDetails !== undefined) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
  return reply.result?.value;
}

function isCrossOrigin(child: Frame, parent: Frame): boolean {
  try {
    const url = new URL(child.url());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== new URL(parent.url()).origin;
  } catch {
    return false;
  }
}

/** One read of a frame, in a fresh isolated world of it (a world dies with its document). */
async function readFrame(frame: Frame, mode: ReadMode, depth: number, context: ReadContext): Promise<unknown> {
  const session = frameSession(frame);
  const id = frameId(frame);
  if (session === undefined || id === undefined) throw new Error('the frame has no CDP session or id to read it through');
  const { executionContextId } = (await session.send('Page.createIsolatedWorld', { frameId: id, worldName: WORLD_NAME })) as {
    executionContextId: number;
  };
  const depthLeft = MAX_FRAME_DEPTH - depth;
  if (mode === 'html' || depthLeft <= 1) return evaluateIn(session, executionContextId, mode, context.maxChars, depthLeft);
  const crossOrigin = frame.childFrames().filter((child) => isCrossOrigin(child, frame));
  const children = await registerChildFrames(session, executionContextId, crossOrigin, context.framesLeft.count);
  const html = await evaluateIn(session, executionContextId, mode, context.maxChars, depthLeft);
  if (typeof html !== 'string' || children.size === 0) return html;
  const stitched = await stitchRemoteFrames(html, children, (child) => readRemoteFrame(child, depth + 1, context));
  return stitched.length > context.maxChars ? null : stitched;
}

/** A cross-origin frame's reader form, or '' when it cannot be read in time or at all (never an error). */
async function readRemoteFrame(frame: Frame, depth: number, context: ReadContext): Promise<string> {
  if (context.framesLeft.count <= 0) return '';
  context.framesLeft.count--;
  try {
    const read = await Promise.race([readFrame(frame, 'reader-frame', depth, context), context.timers.after(FRAME_READ_TIMEOUT_MS, null)]);
    return typeof read === 'string' ? read : '';
  } catch {
    return '';
  }
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
        const context = { maxChars: maxContentBytes, framesLeft: { count: MAX_FRAMES }, timers };
        const html = await readFrame(page.mainFrame(), mode, 0, context);
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
