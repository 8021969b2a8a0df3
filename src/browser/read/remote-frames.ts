// Cross-origin iframes in the reader form. Their documents live in other renderer processes, out of
// reach of the page's own isolated world, so each is read through its own CDP session and grafted in
// where its iframe stands: before the parent is read, every child frame's owner element is registered
// under a key in the parent's isolated world (CDP DOM.getFrameOwner + DOM.resolveNode there), the
// in-page script leaves a placeholder for each key it meets and asks for those frames, and the
// children's reader forms go back to it by key (serialize.ts).
import type { CDPSession, Frame } from '@cloudflare/puppeteer';
import { frameId } from '../cdp-internals.js';
import { FRAME_KEYS_GLOBAL } from '../../in-page/protocol.js';

// Runs in the parent's isolated world on the iframe element: remembers it under a key.
const REMEMBER_OWNER = `function (key) { (globalThis.${FRAME_KEYS_GLOBAL} ??= new Map()).set(this, key); }`;

/**
 * Registers the owner elements of `children` (frames of the document `session` reads) in isolated
 * world `contextId`; returns the frames by key. At most `limit`; a frame whose owner is gone is left out.
 */
export async function registerChildFrames(
  session: CDPSession,
  contextId: number,
  children: Frame[],
  limit: number,
): Promise<Map<string, Frame>> {
  const byKey = new Map<string, Frame>();
  for (const [index, child] of children.slice(0, limit).entries()) {
    const id = frameId(child);
    if (id === undefined) continue;
    try {
      const { backendNodeId } = (await session.send('DOM.getFrameOwner', { frameId: id })) as { backendNodeId: number };
      const { object } = (await session.send('DOM.resolveNode', { backendNodeId, executionContextId: contextId })) as {
        object: { objectId?: string };
      };
      if (object.objectId === undefined) continue;
      await session.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: REMEMBER_OWNER,
        arguments: [{ value: String(index) }],
      });
      byKey.set(String(index), child);
    } catch {
      // The frame went away meanwhile: its iframe is left out, like any frame that cannot be read.
    }
  }
  return byKey;
}
