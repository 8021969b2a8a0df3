// Isolated worlds: the project's own JavaScript context in a frame's document, with its own globals
// and prototypes over the page's real DOM, so the page's scripts cannot tamper with what our in-page
// code calls (reads in serialize.ts, waits in page-waits.ts). A world dies with its document.
import type { CDPSession, Frame } from '@cloudflare/puppeteer';
import { frameId, frameSession } from './cdp-internals.js';

const WORLD_NAME = 'page-fetch-serialize';
/** What CDP answers a call into a document that has gone meanwhile (the page navigated). */
const NAVIGATED_AWAY =
  /Execution context was destroyed|Cannot find context|navigated or closed|No frame for given id|Frame with the given id/i;

export interface World {
  session: CDPSession;
  executionContextId: number;
}

interface CallReply {
  result?: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** A fresh isolated world of the frame's current document. */
export async function openWorld(frame: Frame): Promise<World> {
  const session = frameSession(frame);
  const id = frameId(frame);
  if (session === undefined || id === undefined) throw new Error('the frame has no CDP session or id to read it through');
  const { executionContextId } = (await session.send('Page.createIsolatedWorld', { frameId: id, worldName: WORLD_NAME })) as {
    executionContextId: number;
  };
  return { session, executionContextId };
}

/**
 * Calls `functionDeclaration` with `argument` in the world and returns its result by value (awaited
 * when it is a promise). A script exception is thrown as an Error with the page's description.
 */
export async function callInWorld(world: World, functionDeclaration: string, argument: unknown): Promise<unknown> {
  const reply = (await world.session.send('Runtime.callFunctionOn', {
    functionDeclaration,
    executionContextId: world.executionContextId,
    arguments: [{ value: argument }],
    returnByValue: true,
    awaitPromise: true,
  })) as CallReply;
  if (reply.exceptionDetails !== undefined) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
  return reply.result?.value;
}

/**
 * A bundled in-page script (build/page-script-<kind>.js) as a function to call: each bundle assigns
 * its exports to a local variable; the function runs it and answers the request.
 */
export const inPageFunction = (script: string) => `function (request) {\n${script}\nreturn pageFetchScript.run(request);\n}`;

/** Whether a call failed because its document went away (the page navigated), not because of the call. */
export function isNavigatedAway(error: unknown): boolean {
  return error instanceof Error && NAVIGATED_AWAY.test(error.message);
}
