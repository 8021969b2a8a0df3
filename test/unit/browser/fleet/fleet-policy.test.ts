// The pure fleet policy (src/browser/fleet/fleet-policy.ts): exhaustive properties over generated fleets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FETCH_QUIET_MS,
  fetchesAbout,
  type FleetLimits,
  type HubView,
  hubState,
  JOB_PAGE_TIME_BESIDE_FETCHES,
  jobPageCap,
  jobPageMayCome,
  jobPageTurnAfter,
  nextWaiter,
  place,
  retryAfterSeconds,
  worthWaiting,
} from '../../../../src/browser/fleet/fleet-policy.js';

const RUNS = { numRuns: 500, seed: 0x7f1ee7 };
const NOW = 1_000_000;
const limitsArb = fc.record({
  maxBrowsers: fc.integer({ min: 1, max: 6 }),
  maxPages: fc.integer({ min: 1, max: 10 }),
  idleCloseMs: fc.constant(60_000),
});
const hubArb = (maxPages: number) =>
  fc.record({
    active: fc.integer({ min: 0, max: maxPages }),
    launching: fc.boolean(),
    lastUsedAt: fc.option(fc.integer({ min: NOW - 120_000, max: NOW }), { nil: undefined }),
  });
const fleetArb = limitsArb.chain((limits) =>
  fc.tuple(
    fc.constant(limits),
    fc.array(hubArb(limits.maxPages), { minLength: limits.maxBrowsers, maxLength: limits.maxBrowsers }),
    fc.boolean(),
  ),
);

describe('hubState', () => {
  const limits: FleetLimits = { maxBrowsers: 4, maxPages: 8, idleCloseMs: 60_000 };
  it.each<[string, HubView, string]>([
    ['never used', { active: 0, launching: false }, 'cold'],
    ['launching', { active: 1, launching: true, lastUsedAt: NOW }, 'launching'],
    ['rendering', { active: 2, launching: false, lastUsedAt: NOW - 600_000 }, 'warm'],
    ['idle for less than the idle close', { active: 0, launching: false, lastUsedAt: NOW - 59_999 }, 'warm'],
    ['idle for the idle close (its browser closed itself)', { active: 0, launching: false, lastUsedAt: NOW - 60_000 }, 'cold'],
  ])('%s is %s', (_name, hub, state) => {
    expect(hubState(hub, NOW, limits)).toBe(state);
  });
});

describe('place', () => {
  it('never places a page on a browser at its cap, nor on a hub past maxBrowsers', () => {
    fc.assert(
      fc.property(fleetArb, ([limits, hubs, launchAllowed]) => {
        const placement = place(hubs, NOW, limits, launchAllowed);
        if (placement.kind === 'run') {
          expect(placement.hub).toBeLessThan(limits.maxBrowsers);
          expect(hubs[placement.hub]!.active).toBeLessThan(limits.maxPages);
        }
      }),
      RUNS,
    );
  });

  it('launches only when allowed, only a cold hub, and only when no running browser has a free page', () => {
    fc.assert(
      fc.property(fleetArb, ([limits, hubs, launchAllowed]) => {
        const placement = place(hubs, NOW, limits, launchAllowed);
        const freeRunning = hubs.some((hub) => hubState(hub, NOW, limits) !== 'cold' && hub.active < limits.maxPages);
        if (placement.kind === 'run' && placement.launches) {
          expect(launchAllowed).toBe(true);
          expect(hubState(hubs[placement.hub]!, NOW, limits)).toBe('cold');
          expect(freeRunning).toBe(false);
        }
        if (placement.kind === 'run' && !placement.launches) expect(hubState(hubs[placement.hub]!, NOW, limits)).not.toBe('cold');
      }),
      RUNS,
    );
  });

  it('waits only when no running browser has a free page and no launch can start', () => {
    fc.assert(
      fc.property(fleetArb, ([limits, hubs, launchAllowed]) => {
        const placement = place(hubs, NOW, limits, launchAllowed);
        if (placement.kind !== 'wait') return;
        expect(hubs.some((hub) => hubState(hub, NOW, limits) !== 'cold' && hub.active < limits.maxPages)).toBe(false);
        const cold = hubs.some((hub) => hubState(hub, NOW, limits) === 'cold');
        expect(placement.needsLaunch).toBe(cold);
        if (cold) expect(launchAllowed).toBe(false);
      }),
      RUNS,
    );
  });

  it('picks the least busy running browser, the lower index on a tie', () => {
    const limits: FleetLimits = { maxBrowsers: 4, maxPages: 4, idleCloseMs: 60_000 };
    const warm = (active: number): HubView => ({ active, launching: false, lastUsedAt: NOW });
    expect(place([warm(3), warm(1), warm(1), { active: 0, launching: false }], NOW, limits, true)).toEqual({
      kind: 'run',
      hub: 1,
      launches: false,
    });
    expect(place([warm(4), warm(4), { active: 0, launching: false }, { active: 0, launching: false }], NOW, limits, true)).toEqual({
      kind: 'run',
      hub: 2,
      launches: true,
    });
    expect(place([warm(4), warm(4), { active: 0, launching: false }, warm(4)], NOW, limits, false)).toEqual({
      kind: 'wait',
      needsLaunch: true,
    });
    expect(place([warm(4), warm(4), warm(4), warm(4)], NOW, limits, true)).toEqual({ kind: 'wait', needsLaunch: false });
  });
});

describe('retryAfterSeconds', () => {
  it('is the queue time in whole seconds, at least 1', () => {
    expect([0, 1, 999, 1000, 1500, 5000].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2, 5]);
  });
});

describe('worthWaiting', () => {
  const outlook = { ahead: 0, running: 8, meanRenderMs: 2000, queueMs: 5000, launchable: false, maxPages: 8 };
  it('waits while the running pages free enough of them within the queue time', () => {
    // 8 pages of 2 s free about 20 within 5 s.
    expect(worthWaiting({ ...outlook, ahead: 19 })).toBe(true);
    expect(worthWaiting({ ...outlook, ahead: 20 })).toBe(false);
  });

  it('counts the pages of a browser that can still be launched in time', () => {
    expect(worthWaiting({ ...outlook, ahead: 27, launchable: true })).toBe(true);
    expect(worthWaiting({ ...outlook, ahead: 28, launchable: true })).toBe(false);
  });

  it('waits while no render time is known yet, and never sheds for an empty location it can launch in', () => {
    expect(worthWaiting({ ...outlook, ahead: 1000, meanRenderMs: undefined })).toBe(true);
    expect(worthWaiting({ ...outlook, ahead: 7, running: 0, launchable: true })).toBe(true);
  });
});

describe('job pages give way to single fetches', () => {
  const waiting = (jobPage: boolean, limits: FleetLimits) => ({ jobPage, limits });
  const roomArb = fc.record({ withFetches: fc.boolean(), turnCome: fc.boolean() });
  const QUIET = { withFetches: false, turnCome: false };

  it('leaves at least one page of every fleet to single fetches once it has two, and lets job pages have one while none is about', () => {
    fc.assert(
      fc.property(limitsArb, fc.boolean(), (limits, turnCome) => {
        const pages = limits.maxBrowsers * limits.maxPages;
        const cap = jobPageCap(limits, { withFetches: false, turnCome });
        expect(cap).toBeGreaterThanOrEqual(1);
        if (pages >= 2) expect(cap).toBeLessThan(pages);
        else expect(cap).toBe(1);
      }),
      RUNS,
    );
    expect(jobPageCap({ maxBrowsers: 2, maxPages: 4, idleCloseMs: 60_000 }, QUIET)).toBe(6);
  });

  it('lets one job page render beside fetches when its turn has come, and none before', () => {
    fc.assert(
      fc.property(limitsArb, (limits) => {
        expect(jobPageCap(limits, { withFetches: true, turnCome: true })).toBe(1);
        expect(jobPageCap(limits, { withFetches: true, turnCome: false })).toBe(0);
      }),
      RUNS,
    );
  });

  it("spreads a job page's time so that job pages render a fifth of the time beside fetches", () => {
    expect(JOB_PAGE_TIME_BESIDE_FETCHES).toBe(0.2);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 600_000 }), (startedAt, took) => {
        const turnAt = jobPageTurnAfter(startedAt, startedAt + took);
        // The page's time over the time from its start to the next one's turn.
        if (took > 0) expect(took / (turnAt - startedAt)).toBeCloseTo(JOB_PAGE_TIME_BESIDE_FETCHES, 9);
        else expect(turnAt).toBe(startedAt);
      }),
      RUNS,
    );
    expect(jobPageTurnAfter(1000, 1500)).toBe(3500);
  });

  it('places the first waiting fetch before any job page that waited longer', () => {
    fc.assert(
      fc.property(
        limitsArb,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        fc.nat(50),
        roomArb,
        (limits, jobs, running, room) => {
          const queue = jobs.map((jobPage) => waiting(jobPage, limits));
          const next = nextWaiter(queue, running, room);
          const firstFetch = jobs.indexOf(false);
          if (firstFetch !== -1) expect(next).toBe(firstFetch);
          else expect(next).toBe(running < jobPageCap(limits, room) ? 0 : -1);
        },
      ),
      RUNS,
    );
  });

  it('keeps arrival order when only fetches wait (fetch-only load is placed as before)', () => {
    const limits = { maxBrowsers: 1, maxPages: 1, idleCloseMs: 60_000 };
    const room = { withFetches: true, turnCome: false };
    expect(nextWaiter([waiting(false, limits), waiting(false, limits)], 0, room)).toBe(0);
    expect(nextWaiter([], 0, room)).toBe(-1);
  });

  it('counts fetches about while one is under way and for FETCH_QUIET_MS after the last came or ended', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.option(fc.integer({ min: NOW - 3 * FETCH_QUIET_MS, max: NOW }), { nil: undefined }), (underWay, lastAt) => {
        const about = fetchesAbout({ underWay, lastAt }, NOW);
        if (underWay > 0) expect(about).toBe(true);
        else expect(about).toBe(lastAt !== undefined && NOW - lastAt < FETCH_QUIET_MS);
      }),
      RUNS,
    );
    expect(fetchesAbout({ underWay: 0 }, NOW)).toBe(false);
    expect(fetchesAbout({ underWay: 0, lastAt: NOW - FETCH_QUIET_MS }, NOW)).toBe(false);
    expect(fetchesAbout({ underWay: 0, lastAt: NOW - FETCH_QUIET_MS + 1 }, NOW)).toBe(true);
  });

  it('lets every job page come to the directory while no fetch is about, and beside fetches only the one whose turn has come', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), roomArb, (running, waitingPages, room) => {
        const mayCome = jobPageMayCome(running, waitingPages, room);
        if (!room.withFetches) expect(mayCome).toBe(true);
        else expect(mayCome).toBe(room.turnCome && running === 0 && waitingPages === 0);
      }),
      RUNS,
    );
  });
});
