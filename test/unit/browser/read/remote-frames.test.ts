// Cross-origin iframes in the reader form: owners registered in the parent's isolated world under a
// key each (the in-page script asks for the frames it met by those keys), frames gone meanwhile left out.
import type { Frame } from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { registerChildFrames } from '../../../../src/browser/read/remote-frames.js';
import { FakeCdpSession, FakeFrame } from '../support/fake-network.js';

const asFrame = (frame: FakeFrame) => frame as unknown as Frame;

function ownerSession(missing: Set<string> = new Set()) {
  const session = new FakeCdpSession();
  session.answer = async (method, params) => {
    const { frameId, backendNodeId } = params as { frameId?: string; backendNodeId?: number };
    if (method === 'DOM.getFrameOwner') {
      if (missing.has(frameId!)) throw new Error('Frame with the given id was not found.');
      return { backendNodeId: Number(frameId!.slice(1)) };
    }
    if (method === 'DOM.resolveNode') return { object: { objectId: `node-${backendNodeId}` } };
    return undefined;
  };
  return session;
}

describe('registerChildFrames', () => {
  it('remembers each child frame’s iframe element in the given world under its key', async () => {
    const session = ownerSession();
    const children = [new FakeFrame('F1', null), new FakeFrame('F2', null)];
    const byKey = await registerChildFrames(session as never, 42, children.map(asFrame), 50);
    expect([...byKey.entries()]).toEqual([
      ['0', children[0]],
      ['1', children[1]],
    ]);
    const calls = session.sent.filter((call) => call.method !== 'DOM.getFrameOwner');
    expect(calls).toEqual([
      { method: 'DOM.resolveNode', params: { backendNodeId: 1, executionContextId: 42 } },
      { method: 'Runtime.callFunctionOn', params: expect.objectContaining({ objectId: 'node-1', arguments: [{ value: '0' }] }) },
      { method: 'DOM.resolveNode', params: { backendNodeId: 2, executionContextId: 42 } },
      { method: 'Runtime.callFunctionOn', params: expect.objectContaining({ objectId: 'node-2', arguments: [{ value: '1' }] }) },
    ]);
  });

  it('leaves out a frame whose owner is gone, and registers no more than the limit', async () => {
    const children = ['F1', 'F2', 'F3', 'F4'].map((id) => new FakeFrame(id, null));
    const byKey = await registerChildFrames(ownerSession(new Set(['F1'])) as never, 1, children.map(asFrame), 3);
    expect([...byKey.keys()]).toEqual(['1', '2']);
  });
});
