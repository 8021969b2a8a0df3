import type { Frame, Page } from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { consentRound } from '../../../src/consent/round.js';
import { CONSENT_ROUND } from '../../../src/in-page/protocol.js';

// consentRound (round.ts): one call a frame, of the round the consent preload defines, each
// awaited; a frame gone meanwhile (its call rejected) does not fail or hold the others.
function pageOf(frames: { evaluate: (expression: string) => Promise<unknown> }[]): Page {
  return { frames: () => frames as unknown as Frame[] } as unknown as Page;
}

describe('consentRound', () => {
  it("calls the round in every frame's main world and resolves once each answered", async () => {
    const calls: string[] = [];
    let answerSecond: () => void = () => undefined;
    const frames = [
      { evaluate: async (expression: string) => void calls.push(expression) },
      {
        evaluate: (expression: string) => {
          calls.push(expression);
          return new Promise<unknown>((resolve) => (answerSecond = () => resolve(true)));
        },
      },
    ];
    let done = false;
    const round = consentRound(pageOf(frames)).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toHaveLength(2);
    expect(calls.every((expression) => expression.includes(`globalThis.${CONSENT_ROUND}`))).toBe(true);
    expect(done).toBe(false);
    answerSecond();
    await round;
    expect(done).toBe(true);
  });

  it('skips a frame whose call fails (detached, crashed, navigated away)', async () => {
    const frames = [
      { evaluate: async () => Promise.reject(new Error('Execution context was destroyed')) },
      { evaluate: async () => false },
    ];
    await expect(consentRound(pageOf(frames))).resolves.toBeUndefined();
  });
});
