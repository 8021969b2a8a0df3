// The fleet policy of one launch location (DESIGN.md "Capacity and back-pressure"), pure: which
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

/** Retry-After for a request refused after waiting `queueMs`: the wait it already tried, in whole seconds, at least 1. */
export function retryAfterSeconds(queueMs: number): number {
  return Math.max(1, Math.ceil(queueMs / 1000));
}
