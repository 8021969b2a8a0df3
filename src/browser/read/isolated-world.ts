// Isolated worlds: the project's own JavaScript context in a frame's document, with its own globals
// and prototypes over the page's real DOM, so the page's scripts cannot tamper with what our in-page
// code calls (reads in serialize.ts, waits in page-waits.ts). A world dies with its document.
import type { CDPSession, Frame } from '@cloudflare/puppeteer';
import { frameId, frameSession } from '../cdp-internals.js';

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
 * Bytes a reply slice may take on the wire (docs/api.md "Large pages"), far below the 32 MiB a Worker
 * takes in one WebSocket message: a larger message would close the session, and every page on it.
 * CDP writes a printable ASCII character as itself (a quote or backslash as two), anything else as a
 * 6-byte escape; the page counts as it cuts, so plain text goes in few slices, escaped text in more.
 */
export const REPLY_SLICE_BYTES = 4 * 1024 * 1024;

/** Where a slice starting at `start` ends: within REPLY_SLICE_BYTES, never between the two halves of a surrogate pair. */
const SLICE_END = `function sliceEnd(text, start) {
  let budget = ${REPLY_SLICE_BYTES - 1024};
  let end = start;
  while (end < text.length && budget > 0) {
    const code = text.charCodeAt(end++);
    budget -= code >= 0x20 && code < 0x7f ? (code === 0x22 || code === 0x5c ? 2 : 1) : 6;
  }
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return end;
}`;

/** The next slice of a reply kept in the world, forgotten with its last slice. */
const NEXT_SLICE = `function ({ key, start }) {
  ${SLICE_END}
  const text = globalThis[key];
  const end = sliceEnd(text, start);
  if (end >= text.length) delete globalThis[key];
  return text.slice(start, end);
}`;

/**
 * callInWorld for a reply of any size (a page's content): the page hands over its reply as JSON in
 * slices of at most REPLY_SLICE_BYTES on the wire, keeping the rest in the world until asked for. A
 * reply within one slice costs no more calls than callInWorld.
 */
export async function callInWorldSliced(world: World, functionDeclaration: string, argument: unknown): Promise<unknown> {
  const key = `pageFetchReply${Math.random().toString(36).slice(2)}`;
  // A reply whose JSON fits in one slice even if every character were escaped goes as it is.
  const sliced = `async function (request) {
  ${SLICE_END}
  const reply = await (${functionDeclaration}).call(this, request);
  const text = JSON.stringify(reply) ?? 'null';
  if (text.length * 6 <= ${REPLY_SLICE_BYTES - 1024}) return { whole: reply ?? null };
  const end = sliceEnd(text, 0);
  if (end < text.length) globalThis[${JSON.stringify(key)}] = text;
  return { text: end < text.length ? text.slice(0, end) : text, length: text.length };
}`;
  const first = (await callInWorld(world, sliced, argument)) as { whole: unknown } | { text: string; length: number };
  if ('whole' in first) return first.whole;
  const slices = [first.text];
  for (let read = first.text.length; read < first.length; ) {
    const slice = (await callInWorld(world, NEXT_SLICE, { key, start: read })) as string;
    // A slice never comes back empty while text is left; if one did, reading on would never end.
    if (slice.length === 0) throw new Error('the page lost the rest of its reply');
    slices.push(slice);
    read += slice.length;
  }
  return JSON.parse(slices.join(''));
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
