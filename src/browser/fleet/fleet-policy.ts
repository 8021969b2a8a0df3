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
 * Share of a location's pages that job pages (crawl and batch) may hold at once while no single
 * fetch is about: the rest stay free for fetches, so a fetch that comes finds a page at once
 * (docs/fleet.md "Job pages").
 */
export const JOB_PAGE_SHARE = 0.75;

/**
 * Share of the time job pages may render while single fetches are about (`fetchesAbout`): a render
 * cannot be paused once started, and on a browser's machine every job page rendering beside a fetch
 * takes a share of the CPU the fetch's render needs. So beside fetches job pages render one at a
 * time, and after each the next waits four times as long as it took (`jobPageTurnAfter`): at least
 * four fetches in five meet no job page, which keeps the median fetch the idle fleet's, and a crawl
 * still moves on a location that always has callers, at a fifth of its pace.
 */
export const JOB_PAGE_TIME_BESIDE_FETCHES = 0.2;

/**
 * How long after its last single fetch a location still counts as serving callers: fetches that
 * come at least this often are one stream of traffic, and a crawl that filled the fleet between
 * two of them would have its pages rendering when the next one comes.
 */
export const FETCH_QUIET_MS = 5000;

/** What the directory knows of a location's single fetches. */
export interface FetchActivity {
  /** Fetches waiting for a page or rendering now. */
  underWay: number;
  /** When the last fetch came or finished (ms); undefined if none yet. */
  lastAt?: number;
}

/** Whether single fetches are about: one is under way, or one came or finished within FETCH_QUIET_MS. */
export function fetchesAbout(activity: FetchActivity, now: number): boolean {
  return activity.underWay > 0 || (activity.lastAt !== undefined && now - activity.lastAt < FETCH_QUIET_MS);
}

/**
 * When a job page may next start beside fetches, after one that rendered from `startedAt` to
 * `endedAt` (ms): its time spread so that job pages render JOB_PAGE_TIME_BESIDE_FETCHES of the time.
 * Wall time stands for the CPU it took: a page that mostly waited for its server is over-counted,
 * never one that computed.
 */
export function jobPageTurnAfter(startedAt: number, endedAt: number): number {
  return endedAt + (endedAt - startedAt) * (1 / JOB_PAGE_TIME_BESIDE_FETCHES - 1);
}

/** Where job pages stand with the location's single fetches, as the directory sees it now. */
export interface JobPageRoom {
  /** Single fetches are about (`fetchesAbout`). */
  withFetches: boolean;
  /** The last job page's time has been spread (`jobPageTurnAfter`), so one may start beside fetches. */
  turnCome: boolean;
}

/**
 * Job pages one location renders at once at most: while fetches are about, one when its turn has
 * come and none otherwise; else their share of the pages, at least one.
 */
export function jobPageCap(limits: FleetLimits, room: JobPageRoom): number {
  const share = Math.max(1, Math.floor(limits.maxBrowsers * limits.maxPages * JOB_PAGE_SHARE));
  if (!room.withFetches) return share;
  return room.turnCome ? 1 : 0;
}

/** A request waiting for a page, as the choice of the next one sees it. */
export interface WaitingRequest {
  jobPage: boolean;
  limits: FleetLimits;
}

/**
 * Which waiting request gets the next page: the first single fetch, in arrival order; when none
 * waits, the first job page while job pages hold less than their cap. -1 when none may have one.
 */
export function nextWaiter(waiting: readonly WaitingRequest[], jobPagesRunning: number, room: JobPageRoom): number {
  const fetch = waiting.findIndex((request) => !request.jobPage);
  if (fetch !== -1) return fetch;
  const job = waiting[0];
  return job !== undefined && jobPagesRunning < jobPageCap(job.limits, room) ? 0 : -1;
}

/**
 * Whether a job page about to be taken from the jobs' queue may go to the directory now: yes when
 * no fetch is about (it waits there like any request); while fetches are about, only when its turn
 * has come and no other job page renders, waits or was let come. One that may not goes back to the
 * jobs' queue for later, so a crawl's pages wait there, not beside a caller's.
 */
export function jobPageMayCome(jobPagesRunning: number, jobPagesWaiting: number, room: JobPageRoom): boolean {
  return !room.withFetches || (room.turnCome && jobPagesRunning + jobPagesWaiting === 0);
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
