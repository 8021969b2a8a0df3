// Timers (timers.ts): a wait resolves with its value after its delay, and once the set is cleared no
// wait ends: neither one pending at the clear nor one asked for after it, which starts no timer at all.
import { describe, expect, it, vi } from 'vitest';
import { Timers } from '../../../src/browser/timers.js';
import { at, track, useFakeClock } from './support/settle.js';

useFakeClock();

describe('Timers', () => {
  it('resolves a wait with its value after its delay', async () => {
    const timers = new Timers();
    const wait = track(timers.after(300, 'done'));
    await at(1000);
    expect(wait.current).toEqual({ state: 'resolved', value: 'done', at: 300 });
  });

  it('resolves a wait with a negative delay at once', async () => {
    const timers = new Timers();
    const wait = track(timers.after(-50, 'done'));
    await at(1000);
    expect(wait.current).toEqual({ state: 'resolved', value: 'done', at: 0 });
  });

  it('answers within a deadline with the work, or with timeout when the deadline comes first', async () => {
    const timers = new Timers();
    const quick = track(timers.within(Date.now() + 500, timers.after(200, 'work')));
    const slow = track(timers.within(Date.now() + 500, timers.after(900, 'work')));
    await at(1000);
    expect(quick.current).toEqual({ state: 'resolved', value: 'work', at: 200 });
    expect(slow.current).toEqual({ state: 'resolved', value: 'timeout', at: 500 });
  });

  it('never resolves a wait that was pending when cleared', async () => {
    const timers = new Timers();
    const wait = track(timers.after(300, 'done'));
    await at(100);
    timers.clear();
    await at(10_000);
    expect(wait.current.state).toBe('pending');
  });

  it('leaves no timer behind once cleared', async () => {
    const timers = new Timers();
    timers.after(300, 'a');
    timers.after(600, 'b');
    timers.clear();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never resolves a wait asked for after clear', async () => {
    const timers = new Timers();
    timers.clear();
    const wait = track(timers.after(300, 'done'));
    await at(10_000);
    expect(wait.current.state).toBe('pending');
  });

  it('starts no timer for a wait asked for after clear', () => {
    const timers = new Timers();
    timers.clear();
    timers.after(300, 'done');
    expect(vi.getTimerCount()).toBe(0);
  });
});
