// The admission of one launch location's requests to its browsers: a FIFO queue in front of the
// location's hubs, placed by the pure policy (fleet-policy.ts), bounded by the request's queue time
// (503 browser_unavailable + Retry-After when no page came free), launches paced by Browser
// Rendering's launch rate, and identical requests under way shared. `admit` takes a request (shared,
// or routed); `route` waits for its placement and sends it to that hub, which renders it. Plain logic
// over two functions (send a call to hub i; ms until a launch is allowed), so tests and the Durable
// Object (directory.ts) drive the same code; every request of the location passes here, so its view
// of the hubs and of its single fetches is exact.
import { ApiError, toWireError } from '../../errors.js';
import {
  FETCH_QUIET_MS,
  type FetchActivity,
  fetchesAbout,
  type FleetLimits,
  type HubView,
  hubState,
  type JobPageRoom,
  jobPageMayCome,
  jobPageTurnAfter,
  nextWaiter,
  place,
  retryAfterSeconds,
  type WaitingRequest,
  worthWaiting,
} from './fleet-policy.js';
import type { RenderCall, RenderOutcome } from '../render-call.js';

/** Sends a call to hub `index` of the location, which renders it. */
export type SendToHub = (index: number, call: RenderCall) => Promise<RenderOutcome>;
/** Milliseconds until Browser Rendering allows another browser launch (0: now). */
export type LaunchWait = () => Promise<number>;

/**
 * How long a job page the directory let come while fetches are about counts as on its way (ms): it
 * reaches the directory after one call to its job, or never if the job was cancelled meanwhile.
 */
const JOB_PAGE_ON_ITS_WAY_MS = 2000;

/** Weight of the newest render in the mean render time. */
const RENDER_TIME_WEIGHT = 0.1;

/** Time and timers; the simulation (bench/fleet/) drives the directory on a simulated clock. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Waiter extends WaitingRequest {
  /** The policy placed the request on hub `index`. */
  placed(index: number): void;
}

function limitsOf(call: RenderCall): FleetLimits {
  return { maxBrowsers: call.fleet.maxBrowsers, maxPages: call.fleet.maxPages, idleCloseMs: call.idleCloseMs };
}

export class FleetDirectory {
  private readonly hubs: HubView[] = [];
  private readonly queue: Waiter[] = [];
  private readonly shared = new Map<string, Promise<RenderOutcome>>();
  /** No launch before this time (ms); a launch sets it from Browser Rendering's limits. */
  private nextLaunchAt = 0;
  /** Pages of crawl and batch jobs rendering now (they may hold at most their cap). */
  private jobPagesRunning = 0;
  /** The location's single fetches, which hold job pages to a few while they are about. */
  private readonly fetches: FetchActivity = { underWay: 0 };
  /** No job page starts beside fetches before this time (ms): the last one's time, spread. */
  private jobPageTurnAt = 0;
  /** A job page let come beside fetches is on its way until this time (ms), so no other is let come. */
  private jobPageOnItsWayUntil = 0;
  /** The timer that looks at the queue again when job pages may start, and when it is due (ms). */
  private jobPageTimer?: { handle: unknown; dueAt: number };
  /** Recent mean time of a render that succeeded (ms), for shedding. */
  private meanRenderMs?: number;
  private launchCheck?: Promise<void>;
  private launchTimer?: unknown;

  constructor(
    private readonly sendToHub: SendToHub,
    private readonly launchWait: LaunchWait,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  private now(): number {
    return this.clock.now();
  }

  /** What the directory knows of its hubs (for tests and diagnostics). */
  view(): readonly HubView[] {
    return this.hubs;
  }

  /**
   * Whether a job page may come to the directory now (fleet-policy.ts `jobPageMayCome`); the queue
   * consumer hands one that may not back to the jobs' queue.
   */
  jobPageMayCome(): boolean {
    const now = this.now();
    const room = this.jobPageRoom(now);
    const onItsWay = this.jobPageOnItsWayUntil > now ? 1 : 0;
    const mayCome = jobPageMayCome(this.jobPagesRunning, this.queue.filter((queued) => queued.jobPage).length + onItsWay, room);
    if (mayCome && room.withFetches) this.jobPageOnItsWayUntil = now + JOB_PAGE_ON_ITS_WAY_MS;
    return mayCome;
  }

  private jobPageRoom(now: number): JobPageRoom {
    return { withFetches: fetchesAbout(this.fetches, now), turnCome: now >= this.jobPageTurnAt };
  }

  /**
   * Takes a request of the location: a call with the share key of one under way gets that one's
   * outcome; any other is routed to a hub, or refused.
   */
  admit(call: RenderCall): Promise<RenderOutcome> {
    const key = call.shareKey;
    if (key === undefined) return this.route(call);
    const underWay = this.shared.get(key);
    if (underWay !== undefined) return underWay;
    const outcome = this.route(call).finally(() => this.shared.delete(key));
    this.shared.set(key, outcome);
    return outcome;
  }

  /**
   * Waits in the queue until the policy places the call on a hub, then sends it there with the queue
   * time it has left; refused with 503 browser_unavailable when no page comes free within that time.
   */
  private async route(call: RenderCall): Promise<RenderOutcome> {
    if (call.jobPage === true) {
      this.jobPageOnItsWayUntil = 0;
      return this.routeUnderWay(call);
    }
    this.noteFetch(1);
    try {
      return await this.routeUnderWay(call);
    } finally {
      this.noteFetch(-1);
    }
  }

  private async routeUnderWay(call: RenderCall): Promise<RenderOutcome> {
    const started = this.now();
    const index = await this.waitForPlacement(call);
    const queued = this.now() - started;
    if (index === undefined) {
      const refused = new ApiError('browser_unavailable', undefined, {
        headers: { 'Retry-After': String(retryAfterSeconds(call.fleet.queueMs)) },
        cause: `no browser page within the queue time (${call.fleet.queueMs} ms)`,
      });
      return { ok: false, error: toWireError(refused), timings: { queue: queued } };
    }
    const rendering = this.now();
    try {
      const outcome = await this.sendToHub(index, { ...call, launchRetryMs: Math.max(0, call.fleet.queueMs - queued) });
      if (outcome.ok) this.noteRenderTime(this.now() - rendering);
      return { ...outcome, timings: { queue: queued, ...outcome.timings } };
    } finally {
      if (call.jobPage === true) {
        this.jobPagesRunning--;
        this.jobPageTurnAt = Math.max(this.jobPageTurnAt, jobPageTurnAfter(rendering, this.now()));
      }
      this.release(index);
    }
  }

  /** The hub index this call is placed on, or undefined when none could be had within its queue time. */
  private waitForPlacement(call: RenderCall): Promise<number | undefined> {
    const limits = limitsOf(call);
    while (this.hubs.length < limits.maxBrowsers) this.hubs.push({ active: 0, launching: false });
    return new Promise((resolve) => {
      let timer: unknown;
      const waiter: Waiter = {
        limits,
        jobPage: call.jobPage === true,
        placed: (index) => {
          if (timer !== undefined) this.clock.clearTimeout(timer);
          resolve(index);
        },
      };
      this.queue.push(waiter);
      this.pump();
      if (!this.queue.includes(waiter)) return;
      if (!this.worthWaiting(waiter, call.fleet.queueMs)) {
        this.queue.pop();
        resolve(undefined);
        return;
      }
      timer = this.clock.setTimeout(() => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) this.queue.splice(at, 1);
        resolve(undefined);
      }, call.fleet.queueMs);
    });
  }

  /**
   * Whether the request just queued (the last) can expect a page within its queue time; a single
   * fetch counts only the fetches ahead of it, as job pages give way to it.
   */
  private worthWaiting(waiter: Waiter, queueMs: number): boolean {
    const { limits } = waiter;
    const now = this.now();
    const ahead = waiter.jobPage ? this.queue : this.queue.filter((queued) => !queued.jobPage);
    return worthWaiting({
      ahead: ahead.length - 1,
      running: this.hubs.reduce((pages, hub) => pages + hub.active, 0),
      meanRenderMs: this.meanRenderMs,
      queueMs,
      launchable: this.hubs.some((hub) => hubState(hub, now, limits) === 'cold') && this.nextLaunchAt < now + queueMs,
      maxPages: limits.maxPages,
    });
  }

  private noteRenderTime(ms: number): void {
    this.meanRenderMs = this.meanRenderMs === undefined ? ms : this.meanRenderMs + RENDER_TIME_WEIGHT * (ms - this.meanRenderMs);
  }

  /**
   * A single fetch came (+1) or ended (-1). The first of a new stream of fetches finds no turn to
   * wait for: the job pages' time is spread only over the fetches it could slow.
   */
  private noteFetch(change: 1 | -1): void {
    if (change === 1 && !fetchesAbout(this.fetches, this.now())) this.jobPageTurnAt = 0;
    this.fetches.underWay += change;
    this.fetches.lastAt = this.now();
    if (change === -1) this.pump();
  }

  /**
   * Job pages waiting in the directory wait on the fetches about and on their turn beside them: the
   * directory looks at its queue again once no fetch has come for FETCH_QUIET_MS (a fetch that came
   * meanwhile moves that time on) or when the next job page's turn comes, whichever is first.
   */
  private pumpLater(now: number): void {
    if (!this.queue.some((queued) => queued.jobPage)) return;
    // Only times to come: a job page that waits when both have passed waits for a page to free,
    // which `release` looks at.
    const ahead = (at: number | undefined) => (at !== undefined && at > now ? at : Number.POSITIVE_INFINITY);
    const { underWay, lastAt } = this.fetches;
    const quietAt = underWay === 0 && lastAt !== undefined ? lastAt + FETCH_QUIET_MS : undefined;
    const dueAt = Math.min(ahead(quietAt), ahead(this.jobPageTurnAt));
    if (dueAt === Number.POSITIVE_INFINITY) return;
    if (this.jobPageTimer !== undefined) {
      if (this.jobPageTimer.dueAt <= dueAt) return;
      this.clock.clearTimeout(this.jobPageTimer.handle);
    }
    const handle = this.clock.setTimeout(
      () => {
        this.jobPageTimer = undefined;
        this.pump();
      },
      Math.max(0, dueAt - now),
    );
    this.jobPageTimer = { handle, dueAt };
  }

  /** Places waiting requests, single fetches before job pages, while the policy finds them a page. */
  private pump(): void {
    for (;;) {
      const now = this.now();
      const next = nextWaiter(this.queue, this.jobPagesRunning, this.jobPageRoom(now));
      if (next === -1) {
        this.pumpLater(now);
        return;
      }
      const head = this.queue[next]!;
      const launchAllowed = this.launchCheck === undefined && now >= this.nextLaunchAt;
      const placement = place(this.hubs, now, head.limits, launchAllowed);
      if (placement.kind === 'wait') {
        if (placement.needsLaunch) this.pumpWhenLaunchAllowed(now);
        return;
      }
      this.queue.splice(next, 1);
      if (head.jobPage) this.jobPagesRunning++;
      const hub = this.hubs[placement.hub]!;
      hub.active++;
      hub.lastUsedAt = now;
      if (placement.launches) {
        hub.launching = true;
        this.checkLaunchRate();
      }
      head.placed(placement.hub);
    }
  }

  private release(index: number): void {
    const hub = this.hubs[index]!;
    hub.active--;
    hub.launching = false;
    hub.lastUsedAt = this.now();
    this.pump();
  }

  /** After a launch, asks when the next one is allowed; until it answers, no other launch starts. */
  private checkLaunchRate(): void {
    this.launchCheck = this.launchWait()
      .then(
        (ms) => (this.nextLaunchAt = this.now() + Math.max(0, ms)),
        () => (this.nextLaunchAt = this.now()), // limits unknown: launching is the binding's call
      )
      .then(() => {
        this.launchCheck = undefined;
        this.pump();
      });
  }

  private pumpWhenLaunchAllowed(now: number): void {
    if (this.launchCheck !== undefined || this.launchTimer !== undefined) return;
    this.launchTimer = this.clock.setTimeout(
      () => {
        this.launchTimer = undefined;
        this.pump();
      },
      Math.max(0, this.nextLaunchAt - now),
    );
  }
}
