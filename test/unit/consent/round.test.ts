import type { Frame, Page } from '@cloudflare/puppeteer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consentRound, SHOWN_POLL_MS, SHOWN_WAIT_MS } from '../../../src/consent/round.js';
import { CONSENT_ROUND, CONSENT_STILL_SHOWN } from '../../../src/in-page/protocol.js';

// consentRound (round.ts): one call a frame, of the round the consent preload defines, each
// awaited; a frame gone meanwhile (its call rejected) does not fail or hold the others; where a
// dialog was answered, the frames are asked until none says a declined dialog still shows.
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
          // Its dialog answered, and closed with the answer.
          if (expression.includes(JSON.stringify(CONSENT_STILL_SHOWN))) return Promise.resolve(false);
          return new Promise<unknown>((resolve) => (answerSecond = () => resolve(true)));
        },
      },
    ];
    let done = false;
    const round = consentRound(pageOf(frames)).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toHaveLength(2);
    expect(calls.every((expression) => expression.includes(`globalThis.${CONSENT_ROUND}`))).toBe(true);
    expect(calls.some((expression) => expression.includes(JSON.stringify(CONSENT_STILL_SHOWN)))).toBe(false);
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

  describe('after a dialog was answered', () => {
    afterEach(() => void vi.useRealTimers());
    const asksShown = (expression: string) => expression.includes(JSON.stringify(CONSENT_STILL_SHOWN));

    it('asks nothing more where no frame answered a dialog', async () => {
      const calls: string[] = [];
      const frames = [
        {
          evaluate: async (expression: string) => {
            calls.push(expression);
            return false;
          },
        },
      ];
      await consentRound(pageOf(frames));
      expect(calls.filter(asksShown)).toEqual([]);
    });

    it('resolves once the declined dialog no longer shows, its frame gone or answering false', async () => {
      vi.useFakeTimers();
      let shownLooks = 0;
      const frames = [
        { evaluate: async (expression: string) => (asksShown(expression) ? ++shownLooks < 3 : true) },
        { evaluate: async (expression: string) => (asksShown(expression) ? Promise.reject(new Error('detached')) : false) },
      ];
      let done = false;
      const round = consentRound(pageOf(frames)).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(SHOWN_POLL_MS);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(SHOWN_POLL_MS);
      await round;
      expect(shownLooks).toBe(3);
    });

    it('takes the page after SHOWN_WAIT_MS when the dialog never closes', async () => {
      vi.useFakeTimers();
      const frames = [{ evaluate: async () => true }];
      let done = false;
      const round = consentRound(pageOf(frames)).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(SHOWN_WAIT_MS - SHOWN_POLL_MS);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(2 * SHOWN_POLL_MS);
      await round;
      expect(done).toBe(true);
    });
  });
});
