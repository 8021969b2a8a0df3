import { describe, expect, it } from 'vitest';
import { watchConsent } from '../../../src/consent/watch.js';

const report = (frame: string, event: string, cmp = 'Onetrust') => JSON.stringify({ frame, event, cmp });

async function isSettled(promise: Promise<void>): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10))]);
}

describe('watchConsent', () => {
  it('is settled at once on a page that reported no dialog', async () => {
    const watch = watchConsent();
    expect(watch.pending()).toBe(false);
    expect(await isSettled(watch.settled())).toBe(true);
  });

  it('holds while a found dialog is being answered, and settles when it was declined', async () => {
    const watch = watchConsent();
    watch.receive(report('a', 'found'));
    expect(watch.pending()).toBe(true);
    const settled = watch.settled();
    expect(await isSettled(settled)).toBe(false);
    watch.receive(report('a', 'declined'));
    expect(await isSettled(settled)).toBe(true);
    expect(watch.declined()).toEqual(['Onetrust']);
  });

  it.each(['failed', 'done'])('settles a frame whose answer ended with %s', async (event) => {
    const watch = watchConsent();
    watch.receive(report('a', 'found'));
    watch.receive(report('a', event));
    expect(watch.pending()).toBe(false);
    expect(watch.declined()).toEqual([]);
  });

  it('waits for every frame with a dialog', async () => {
    const watch = watchConsent();
    watch.receive(report('top', 'found', 'Sourcepoint-top'));
    watch.receive(report('frame', 'found', 'Sourcepoint-frame'));
    const settled = watch.settled();
    watch.receive(report('frame', 'declined', 'Sourcepoint-frame'));
    expect(await isSettled(settled)).toBe(false);
    watch.receive(report('top', 'done', 'Sourcepoint-top'));
    expect(await isSettled(settled)).toBe(true);
  });

  it.each([
    ['not a string', { frame: 'a', event: 'found', cmp: 'x' }],
    ['not JSON', '{found'],
    ['an unknown event', report('a', 'accepted')],
    ['no frame', JSON.stringify({ event: 'found', cmp: 'x' })],
  ])('ignores a report that is %s', (_case, payload) => {
    const watch = watchConsent();
    watch.receive(payload);
    expect(watch.pending()).toBe(false);
  });

  it('stops listening after 200 reports (a page calling the binding in a loop)', () => {
    const watch = watchConsent();
    for (let i = 0; i < 200; i++) watch.receive(report(`f${i}`, 'declined'));
    watch.receive(report('late', 'found'));
    expect(watch.pending()).toBe(false);
  });
});
