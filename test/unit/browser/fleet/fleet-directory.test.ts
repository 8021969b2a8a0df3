// The location's admission (src/browser/fleet/fleet-directory.ts) over fake hubs and launch
// pacing, with fake timers: caps, the bounded queue and its 503, launch pacing, shared renders.
import { describe, expect, it, vi } from 'vitest';
import { FleetDirectory } from '../../../../src/browser/fleet/fleet-directory.js';
import { FETCH_QUIET_MS } from '../../../../src/browser/fleet/fleet-policy.js';
import type { RenderCall, RenderedPage, RenderOutcome } from '../../../../src/browser/render-call.js';
import { RENDER_CALL, RENDERED_PAGE } from '../support/render-call.js';
import { useFakeClock } from '../support/settle.js';

const PAGE: RenderedPage = { ...RENDERED_PAGE, content: '<p>x</p>' };
const CALL: RenderCall = { ...RENDER_CALL, fleet: { maxBrowsers: 2, maxPages: 2, queueMs: 1500 } };

/** A fetch to one browser of four pages (three for job pages), that waits up to a minute for one. */
const FOUR_PAGES_CALL: RenderCall = { ...RENDER_CALL, fleet: { maxBrowsers: 1, maxPages: 4, queueMs: 60_000 } };

/** Renders that finish when the test says, recording on which hub each ran and how many run at once per hub. */
function fakeHubs() {
  const running = new Map<number, number>();
  const peak = new Map<number, number>();
  const finishers: (() => void)[] = [];
  const sendToHub = vi.fn(async (index: number, _call: RenderCall): Promise<RenderOutcome> => {
    running.set(index, (running.get(index) ?? 0) + 1);
    peak.set(index, Math.max(peak.get(index) ?? 0, running.get(index)!));
    await new Promise<void>((resolve) => finishers.push(resolve));
    running.set(index, running.get(index)! - 1);
    return { ok: true, page: PAGE, timings: { navigate: 10 } };
  });
  const finishAll = () => {
    for (const finish of finishers.splice(0)) finish();
  };
  return { sendToHub, peak, finishAll, hubsUsed: () => sendToHub.mock.calls.map(([index]) => index) };
}

const codeOf = (outcome: RenderOutcome) => (outcome.ok ? 'ok' : outcome.error.code);

useFakeClock();

describe('FleetDirectory', () => {
  it('fills browsers up to their page cap, launches the next one, and answers the rest 503 after the queue time', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const outcomes = Array.from({ length: 12 }, () => directory.admit(CALL));
    await vi.advanceTimersByTimeAsync(0);
    expect(hubs.hubsUsed().sort()).toEqual([0, 0, 1, 1]);
    await vi.advanceTimersByTimeAsync(1500);
    hubs.finishAll();
    const answered = await Promise.all(outcomes);
    expect(answered.map(codeOf).sort()).toEqual([...Array(8).fill('browser_unavailable'), ...Array(4).fill('ok')].sort());
    for (const refused of answered.filter((outcome) => !outcome.ok)) {
      expect(refused).toMatchObject({ error: { headers: { 'Retry-After': '2' } }, timings: { queue: 1500 } });
    }
    expect(Math.max(...hubs.peak.values())).toBe(2);
  });

  it('gives a freed page to the request that waited longest, within its queue time, with the queue time it has left', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const single = { ...CALL, fleet: { maxBrowsers: 1, maxPages: 1, queueMs: 1500 } };
    const first = directory.admit(single);
    const second = directory.admit(single);
    await vi.advanceTimersByTimeAsync(1000);
    hubs.finishAll();
    expect(await first).toMatchObject({ ok: true, timings: { queue: 0 } });
    await vi.advanceTimersByTimeAsync(0);
    hubs.finishAll();
    expect(await second).toMatchObject({ ok: true, timings: { queue: 1000, navigate: 10 } });
    expect(directory.view()).toEqual([{ active: 0, launching: false, lastUsedAt: Date.now() }]);
    // What each had left of its queue time, for retrying a launch Browser Rendering refuses.
    expect(hubs.sendToHub.mock.calls.map(([, call]) => call.launchRetryMs)).toEqual([1500, 500]);
  });

  it('launches no second browser before Browser Rendering allows it', async () => {
    const hubs = fakeHubs();
    const launchWait = vi.fn(async () => 1000);
    const directory = new FleetDirectory(hubs.sendToHub, launchWait);
    const single = { ...CALL, fleet: { maxBrowsers: 2, maxPages: 1, queueMs: 5000 } };
    const outcomes = [directory.admit(single), directory.admit(single)];
    await vi.advanceTimersByTimeAsync(999);
    expect(hubs.hubsUsed()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(hubs.hubsUsed()).toEqual([0, 1]);
    expect(launchWait).toHaveBeenCalledTimes(2);
    hubs.finishAll();
    expect((await Promise.all(outcomes)).map(codeOf)).toEqual(['ok', 'ok']);
  });

  it('launches when the launch pacing cannot be read', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => Promise.reject(new Error('limits unavailable')));
    const single = { ...CALL, fleet: { maxBrowsers: 2, maxPages: 1, queueMs: 5000 } };
    const outcomes = [directory.admit(single), directory.admit(single)];
    await vi.advanceTimersByTimeAsync(0);
    expect(hubs.hubsUsed()).toEqual([0, 1]);
    hubs.finishAll();
    await Promise.all(outcomes);
  });

  it('keeps using a warm browser rather than launching another at low load', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    for (let i = 0; i < 3; i++) {
      const outcome = directory.admit(CALL);
      await vi.advanceTimersByTimeAsync(10_000);
      hubs.finishAll();
      await outcome;
    }
    expect(hubs.hubsUsed()).toEqual([0, 0, 0]);
  });

  it('gives calls with the same share key, while it renders, the one render; never without a key', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const shared = { ...CALL, shareKey: 'k1' };
    const outcomes = [directory.admit(shared), directory.admit(shared), directory.admit(shared), directory.admit(CALL)];
    await vi.advanceTimersByTimeAsync(0);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(2);
    hubs.finishAll();
    expect((await Promise.all(outcomes)).map(codeOf)).toEqual(['ok', 'ok', 'ok', 'ok']);
    const again = directory.admit(shared);
    await vi.advanceTimersByTimeAsync(0);
    hubs.finishAll();
    await again;
    expect(hubs.sendToHub).toHaveBeenCalledTimes(3);
  });

  it('refuses at once, instead of after the queue time, a request that cannot get a page in time', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const single = { ...CALL, fleet: { maxBrowsers: 1, maxPages: 1, queueMs: 1500 } };
    // One render of 1 s teaches the directory the render time.
    const first = directory.admit(single);
    await vi.advanceTimersByTimeAsync(1000);
    hubs.finishAll();
    await first;
    // One page, 1 s renders, 1.5 s of queue: about 1.5 pages free in time, so the first two waiters
    // (0 and 1 ahead) wait and the third (2 ahead) is refused at once.
    const running = directory.admit(single);
    const waiters = [directory.admit(single), directory.admit(single)];
    const shed = directory.admit(single);
    await vi.advanceTimersByTimeAsync(0);
    expect(await shed).toMatchObject({ ok: false, error: { code: 'browser_unavailable' }, timings: { queue: 0 } });
    await vi.advanceTimersByTimeAsync(1000);
    hubs.finishAll();
    await running;
    await vi.advanceTimersByTimeAsync(500);
    expect(await waiters[1]).toMatchObject({ ok: false, timings: { queue: 1500 } });
    hubs.finishAll();
    expect(await waiters[0]).toMatchObject({ ok: true, timings: { queue: 1000 } });
  });

  it('holds job pages to their share of the pages, so a fetch finds one at once, and gives freed pages to fetches first', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const fetch = { ...CALL, fleet: { maxBrowsers: 1, maxPages: 4, queueMs: 5000 } };
    const job = { ...fetch, jobPage: true };
    const jobPages = Array.from({ length: 5 }, () => directory.admit(job));
    await vi.advanceTimersByTimeAsync(0);
    // Three of the four pages: one stays free for a fetch.
    expect(hubs.sendToHub.mock.calls.map(([, call]) => call.jobPage)).toEqual([true, true, true]);
    const firstFetch = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(0);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(4);
    const secondFetch = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(100);
    hubs.finishAll();
    expect(await firstFetch).toMatchObject({ ok: true, timings: { queue: 0 } });
    await vi.advanceTimersByTimeAsync(0);
    // The fetch that came last is placed before the two job pages that waited longer; beside it no job
    // page renders until the last ones' time (100 ms) has been spread four times over.
    expect(hubs.sendToHub.mock.calls.slice(4).map(([, call]) => call.jobPage === true)).toEqual([false]);
    await vi.advanceTimersByTimeAsync(399);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(hubs.sendToHub.mock.calls.slice(4).map(([, call]) => call.jobPage === true)).toEqual([false, true]);
    hubs.finishAll();
    expect(await secondFetch).toMatchObject({ ok: true, timings: { queue: 100 } });
    await vi.advanceTimersByTimeAsync(4 * 400);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(7);
    hubs.finishAll();
    expect((await Promise.all(jobPages)).map(codeOf)).toEqual(Array(5).fill('ok'));
  });

  it('sets no timer for a job page that waits, after quiet, only for a page to free', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const fetch = FOUR_PAGES_CALL;
    const aFetch = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(0);
    hubs.finishAll();
    await aFetch;
    await vi.advanceTimersByTimeAsync(FETCH_QUIET_MS);
    const jobPages = Array.from({ length: 4 }, () => directory.admit({ ...fetch, jobPage: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(4);
    // The fourth job page waits past the share: its queue time is the only timer, none to look again.
    expect(vi.getTimerCount()).toBe(1);
    hubs.finishAll();
    await vi.advanceTimersByTimeAsync(0);
    hubs.finishAll();
    expect((await Promise.all(jobPages)).map(codeOf)).toEqual(Array(4).fill('ok'));
  });

  it('spreads job pages only over the stream of fetches they could slow: a new stream after quiet finds no turn to wait for', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const fetch = FOUR_PAGES_CALL;
    const aFetch = directory.admit(fetch);
    const jobPage = directory.admit({ ...fetch, jobPage: true });
    await vi.advanceTimersByTimeAsync(10_000);
    hubs.finishAll();
    await Promise.all([aFetch, jobPage]);
    // A job page of 10 s beside the fetch: the next one's turn is 40 s away while these fetches last.
    const sameStream = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(0);
    expect(directory.jobPageMayCome()).toBe(false);
    hubs.finishAll();
    await sameStream;
    await vi.advanceTimersByTimeAsync(FETCH_QUIET_MS);
    const nextStream = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(0);
    expect(directory.jobPageMayCome()).toBe(true);
    hubs.finishAll();
    await nextStream;
  });

  it('renders job pages one at a time, a fifth of the time, while fetches are about, and fills its share again FETCH_QUIET_MS after the last', async () => {
    const hubs = fakeHubs();
    const directory = new FleetDirectory(hubs.sendToHub, async () => 0);
    const fetch = FOUR_PAGES_CALL;
    const job = { ...fetch, jobPage: true };
    expect(directory.jobPageMayCome()).toBe(true);
    const aFetch = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(0);
    // Beside the fetch one job page may come; no other is let come while it is on its way.
    expect(directory.jobPageMayCome()).toBe(true);
    expect(directory.jobPageMayCome()).toBe(false);
    const jobPages = Array.from({ length: 4 }, () => directory.admit(job));
    await vi.advanceTimersByTimeAsync(0);
    // Pages are free, but beside the fetch only one job page renders, and no more are asked to come.
    expect(hubs.sendToHub.mock.calls.map(([, call]) => call.jobPage === true)).toEqual([false, true]);
    expect(directory.jobPageMayCome()).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    hubs.finishAll();
    expect(await aFetch).toMatchObject({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    // The job page took 1 s: the next one's turn comes 4 s after it ended, fetches still about.
    expect(hubs.sendToHub).toHaveBeenCalledTimes(2);
    expect(directory.jobPageMayCome()).toBe(false);
    const anotherFetch = directory.admit(fetch);
    await vi.advanceTimersByTimeAsync(4000 - 1);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(hubs.sendToHub.mock.calls.map(([, call]) => call.jobPage === true)).toEqual([false, true, false, true]);
    await vi.advanceTimersByTimeAsync(1000);
    hubs.finishAll();
    expect(await anotherFetch).toMatchObject({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    // Both ended at 6 s: the next turn (10 s) comes before quiet (11 s).
    expect(hubs.sendToHub).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(4000 - 1);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(hubs.sendToHub).toHaveBeenCalledTimes(5);
    expect(directory.jobPageMayCome()).toBe(false);
    await vi.advanceTimersByTimeAsync(FETCH_QUIET_MS - 4000);
    // Quiet: the job pages have their share (three of four pages) again.
    expect(hubs.sendToHub).toHaveBeenCalledTimes(6);
    expect(directory.jobPageMayCome()).toBe(true);
    hubs.finishAll();
    expect((await Promise.all(jobPages)).map(codeOf)).toEqual(Array(4).fill('ok'));
  });
});
