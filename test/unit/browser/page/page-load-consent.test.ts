import { describe, expect, it } from 'vitest';
import { load, outcome } from '../support/load-harness.js';
import { at, useFakeClock } from '../support/settle.js';

// loadPage and the consent round (page-load.ts, consent/round.ts): once the wait event fired, the page
// is taken only after every frame's consent engine looked at it and answered, within the budget.
useFakeClock();

/** A consent round the test answers: how many were asked, and `answer()` settles the last one. */
function heldRound() {
  const asked: number[] = [];
  let answer: () => void = () => undefined;
  const consentRound = () => {
    asked.push(Date.now());
    return new Promise<void>((resolve) => (answer = resolve));
  };
  return { asked, consentRound, answer: () => answer() };
}

describe('loadPage: the consent round', () => {
  it('asks for one round once the wait event fired, and takes the page when it is answered', async () => {
    const round = heldRound();
    const { fake, result } = load({}, { consentRound: round.consentRound });
    await at(100);
    fake.commitDocument();
    await at(1000);
    expect(round.asked).toEqual([]);
    fake.fireDomContentLoaded();
    await at(1200);
    expect(round.asked).toEqual([1000]);
    expect(outcome(result)).toBe('pending');
    await at(1800);
    round.answer();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1800 });
    expect(round.asked).toHaveLength(1);
  });

  it('takes the page as it stands at the end of the budget when a round is never answered', async () => {
    const round = heldRound();
    const { fake, result } = load({}, { consentRound: round.consentRound });
    await at(100);
    fake.commitDocument();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 5000 });
  });
});
