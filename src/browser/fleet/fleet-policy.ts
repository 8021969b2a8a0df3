// The fleet policy of one launch location (docs/api.md "Capacity and back-pressure"), pure: which
// browser a request gets, when a new browser is launched, and how long a refused request should
// wait. No I/O and no clock of its own, so the directory (fleet-directory.ts), its tests and the
// simulation (bench/fleet/) all drive the same decisions.

export interface FleetLimits {
  /** Browsers (hubs) of the location. */
  maxBrowsers: number;
  /** Pages rendering at once in one browser. */
  maxPages: number;
  /** A browser without a page for this long has closed itself (the hubs' idle close). */
  idleCloseMs: number;
}

/** What the directory knows of one hub: it routes every request of the location, so this is exact. */
export interface HubView {
  /** Pages rendering now. */
  active: number;
  /** True from the first request sent to a cold hub until one of its renders returns. */
  launching: boolean;
  /** When the hub last finished or started a render (ms); undefined if never used. */
  lastUsedAt?: number;
}

export type HubState = 'cold' | 'launching' | 'warm';

export function hubState(hub: HubView, now: number, limits: FleetLimits): HubState {
  if (hub.launching) return 'launching';
  if (hub.active > 0) return 'warm';
  return hub.lastUsedAt !== undefined && now - hub.lastUsedAt < limits.idleCloseMs ? 'warm' : 'cold';
}

export type Placement =
  /** Render on this hub now; `launches` when it has no browser yet. */
  | { kind: 'run'; hub: number; launches: boolean }
  /** No page free and no launch allowed: wait for one to free (or for the launch rate). */
  | { kind: 'wait'; needsLaunch: boolean };

/**
 * Where the next request goes: the least busy browser that has (or is launching) a free page, so
 * pages spread over the running browsers; when every one is full, a cold hub is launched if the
 * launch rate allows; otherwise the request waits. Ties go to the lower index, which keeps load on
 * few browsers at low traffic and lets the others close for idleness.
 */
export function place(hubs: readonly HubView[], now: number, limits: FleetLimits, launchAllowed: boolean): Placement {
  let best: number | undefined;
  for (let index = 0; index < Math.min(hubs.length, limits.maxBrowsers); index++) {
    const hub = hubs[index]!;
    if (hubState(hub, now, limits) === 'cold' || hub.active >= limits.maxPages) continue;
    if (best === undefined || hub.active < hubs[best]!.active) best = index;
  }
  if (best !== undefined) return { kind: 'run', hub: best, launches: false };
  const cold = hubs.findIndex((hub, index) => index < limits.maxBrowsers && hubState(hub, now, limits) === 'cold');
  if (cold === -1) return { kind: 'wait', needsLaunch: false };
  return launchAllowed ? { kind: 'run', hub: cold, launches: true } : { kind: 'wait', needsLaunch: true };
}

/**
 * Share of a location's pages that job pages (crawl and batch) may hold at once: the rest stay free
 * for single fetches, so a fetch finds a page at once while a crawl runs (docs/fleet.md "Job pages").
 */
export const JOB_PAGE_SHARE = 0.75;

/** Job pages one location renders at once at most: its share of the pages, at least one. */
export function jobPageCap(limits: FleetLimits): number {
  return Math.max(1, Math.floor(limits.maxBrowsers * limits.maxPages * JOB_PAGE_SHARE));
}

/** A request waiting for a page, as the choice of the next one sees it. */
export interface WaitingRequest {
  jobPage: boolean;
  limits: FleetLimits;
}

/**
 * Which waiting request gets the next page: the first single fetch, in arrival order; when none
 * waits, the first job page while job pages hold less than their share. -1 when none may have one.
 */
export function nextWaiter(waiting: readonly WaitingRequest[], jobPagesRunning: number): number {
  const fetch = waiting.findIndex((request) => !request.jobPage);
  if (fetch !== -1) return fetch;
  const job = waiting[0];
  return job !== undefined && jobPagesRunning < jobPageCap(job.limits) ? 0 : -1;
}

export interface QueueOutlook {
  /** Requests queued before this one. */
  ahead: number;
  /** Pages rendering now in the location. */
  running: number;
  /** Recent mean render time (ms); undefined until a render has finished. */
  meanRenderMs?: number;
  queueMs: number;
  /** A cold hub can be launched before this request's deadline. */
  launchable: boolean;
  maxPages: number;
}

/**
 * Whether a request that found no page can expect one within its queue time: the running pages free
 * about `running × queueMs / meanRenderMs` pages in that time, and a launch that can start before
 * the deadline adds one browser's pages. One that cannot is refused at once (shed), not after
 * waiting out its queue time. Without a measured render time, it waits.
 */
export function worthWaiting(outlook: QueueOutlook): boolean {
  if (outlook.meanRenderMs === undefined || outlook.meanRenderMs <= 0) return true;
  const freed = (outlook.running * outlook.queueMs) / outlook.meanRenderMs;
  return outlook.ahead < freed + (outlook.launchable ? outlook.maxPages : 0);
}

/** Retry-After for a request refused after waiting `queueMs`: the wait it already tried, in whole seconds, at least 1. */
export function retryAfterSeconds(queueMs: number): number {
  return Math.max(1, Math.ceil(queueMs / 1000));
}
