// Replies in slices (isolated-world.ts callInWorldSliced): a fake CDP session runs each function
// it is sent in this process, as the page would, and records what crosses.
import type { CDPSession } from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { callInWorldSliced, REPLY_SLICE_BYTES } from '../../../../src/browser/read/isolated-world.js';
import { FakeCdpSession } from '../support/fake-page.js';

/** A session whose Runtime.callFunctionOn runs the function here and answers its value. */
function runningSession() {
  const session = new FakeCdpSession();
  const crossed: number[] = [];
  const slices: string[] = [];
  session.answer = async (method, params) => {
    if (method !== 'Runtime.callFunctionOn') return undefined;
    const { functionDeclaration, arguments: args } = params as { functionDeclaration: string; arguments: { value: unknown }[] };
    // The test plays the page, which compiles the function it is sent.
    const fn = new Function(`return (${functionDeclaration});`)() as (argument: unknown) => unknown;
    const value = await fn.call(undefined, args[0]!.value);
    crossed.push(JSON.stringify(value).length);
    slices.push(typeof value === 'string' ? value : ((value as { text?: string }).text ?? ''));
    return { result: { value } };
  };
  return { world: { session: session as unknown as CDPSession, executionContextId: 1 }, crossed, slices };
}

const reply = (content: string) => `function (request) { return { kind: 'html', html: ${JSON.stringify(content)}, request }; }`;

describe('callInWorldSliced', () => {
  it('answers a small reply in one call', async () => {
    const { world, crossed } = runningSession();
    expect(await callInWorldSliced(world, reply('<p>small</p>'), { mode: 'html' })).toEqual({
      kind: 'html',
      html: '<p>small</p>',
      request: { mode: 'html' },
    });
    expect(crossed).toHaveLength(1);
  });

  /** What a slice takes on the wire: CDP's JSON of the string. */
  const wireBytes = (slice: string) => JSON.stringify(slice).replace(/[^\x20-\x7e]/g, '\\u0000').length;

  it.each([
    ['text CDP escapes', '\u0007ж😀'],
    ['plain text', 'plain "quoted" \\ text '],
  ])(
    'hands a large reply of %s over in slices of at most REPLY_SLICE_BYTES on the wire, whole again, surrogate pairs never split',
    async (_kind, unit) => {
      const { world, slices } = runningSession();
      const content = `😀${unit.repeat(Math.ceil((3 * REPLY_SLICE_BYTES) / unit.length))}`;
      const answer = (await callInWorldSliced(world, reply(content), null)) as { html: string };
      expect(answer.html === content).toBe(true);
      expect(slices.length).toBeGreaterThan(2);
      for (const slice of slices) expect(wireBytes(slice)).toBeLessThanOrEqual(REPLY_SLICE_BYTES);
      const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
      expect(slices.slice(0, -1).filter((slice) => isHighSurrogate(slice.charCodeAt(slice.length - 1)))).toEqual([]);
      expect(Object.keys(globalThis).some((key) => key.startsWith('pageFetchReply'))).toBe(false);
    },
  );
});
