// `npm run sim:fleet`: a discrete-event simulation of the fleet. It drives the directory the service
// runs (src/browser/fleet/fleet-directory.ts with the pure policy of fleet-policy.ts), one per location, on a
// simulated clock, against a modelled Browser Rendering binding: an account-wide cap on browsers and
// on launches per second, a launch time, pages of a given length, browsers that close when idle.
// Every parameter is printed. Writes docs/fleet-simulation.md; its last line is the summary.
import { writeFileSync } from 'node:fs';
import { DEFAULT_MAX_PAGES_PER_BROWSER } from '../../src/api/config.js';
import { type Clock, FleetDirectory } from '../../src/browser/fleet/fleet-directory.js';
import type { RenderCall, RenderOutcome } from '../../src/browser/render-call.js';
import { toWireError, ApiError } from '../../src/errors.js';
import { RENDER_CALL, RENDERED_PAGE } from '../../test/unit/browser/support/render-call.js';

const OUT = new URL('../../docs/fleet-simulation.md', import.meta.url);

/** The model; each figure is stated in the output with where it comes from. */
const MODEL = {
  locations: 5,
  /** Browser Rendering's default account limits, from Cloudflare's documentation. */
  accountBrowsers: 120,
  launchIntervalMs: 1000,
  /** A browser launch: measured here as the first request's acquire phase, about 1.3 s; rounded up. */
  launchMs: 1500,
  /** The pool's retry budget for a refused launch (250 + 1000 ms, src/browser/fleet/pool.ts) before 503. */
  launchRetryBudgetMs: 1250,
  /** Page time: 1.5 s plus an exponential tail of mean 0.5 s (mean 2 s: the short end of pages that take 2–5 s). */
  pageBaseMs: 1500,
  pageTailMeanMs: 500,
  /** Worker → directory → hub: two Durable Object hops, assumed. */
  hopMs: 10,
  maxBrowsersPerLocation: 24, // 120 browsers over 5 locations
  maxPagesPerBrowser: DEFAULT_MAX_PAGES_PER_BROWSER,
  queueTimeoutMs: 5000,
  idleCloseMs: 60_000,
};

interface TimerEvent {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

/** The simulated clock: a binary heap of timer events, run in time order. */
class SimClock implements Clock {
  time = 0;
  private seq = 0;
  private readonly heap: TimerEvent[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): TimerEvent {
    const event = { at: this.time + Math.max(0, ms), seq: this.seq++, run, cancelled: false };
    this.heap.push(event);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(this.heap[i]!, this.heap[parent]!)) break;
      [this.heap[i], this.heap[parent]] = [this.heap[parent]!, this.heap[i]!];
      i = parent;
    }
    return event;
  }

  clearTimeout(handle: unknown): void {
    (handle as TimerEvent).cancelled = true;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Runs events until none is left before `end`, letting promise reactions settle after each. */
  async runUntil(end: number): Promise<void> {
    for (;;) {
      const next = this.heap[0];
      if (next === undefined || next.at > end) break;
      this.pop();
      if (next.cancelled) continue;
      this.time = next.at;
      next.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = end;
  }

  private before(a: TimerEvent, b: TimerEvent): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private pop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.heap.length && this.before(this.heap[left]!, this.heap[smallest]!)) smallest = left;
      if (right < this.heap.length && this.before(this.heap[right]!, this.heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [this.heap[i], this.heap[smallest]] = [this.heap[smallest]!, this.heap[i]!];
      i = smallest;
    }
  }
}

/** A deterministic random source (mulberry32), so a run can be repeated. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SimBrowser {
  up: boolean;
  launching?: Promise<boolean>;
  active: number;
  idleTimer?: unknown;
}

interface Record {
  arrivedAt: number;
  ms: number;
  status: 200 | 503;
  queuedMs: number;
}

interface RunResult {
  records: Record[];
  maxBrowsers: number;
  maxLaunchesPerSecond: number;
  maxPagesSeen: number;
}

const CALL: RenderCall = {
  ...RENDER_CALL,
  idleCloseMs: MODEL.idleCloseMs,
  fleet: { maxBrowsers: MODEL.maxBrowsersPerLocation, maxPages: MODEL.maxPagesPerBrowser, queueMs: MODEL.queueTimeoutMs },
};

const OK: RenderOutcome = { ok: true, page: RENDERED_PAGE, timings: {} };

/** One run: arrivals at `rate(t)` req/s (Poisson, a random location each) until `endMs`. */
async function simulate(rate: (t: number) => number, endMs: number, seed: number): Promise<RunResult> {
  const clock = new SimClock();
  const rand = random(seed);
  const account = { browsers: 0, nextLaunchAt: 0, launchesBySecond: new Map<number, number>() };
  let maxBrowsers = 0;
  let maxPagesSeen = 0;

  /** A launch for a call that may retry a refused one for `retryMs` (what its queue time left, as the pool does). */
  const launch = (browser: SimBrowser, retryMs: number): Promise<boolean> => {
    const start = Math.max(clock.now(), account.nextLaunchAt);
    const budget = Math.min(MODEL.launchRetryBudgetMs, retryMs);
    if (account.browsers >= MODEL.accountBrowsers || start - clock.now() > budget) {
      return clock.sleep(budget).then(() => false);
    }
    account.nextLaunchAt = start + MODEL.launchIntervalMs;
    account.browsers++;
    maxBrowsers = Math.max(maxBrowsers, account.browsers);
    const second = Math.floor(start / 1000);
    account.launchesBySecond.set(second, (account.launchesBySecond.get(second) ?? 0) + 1);
    return clock.sleep(start - clock.now() + MODEL.launchMs).then(() => {
      browser.up = true;
      return true;
    });
  };

  const directories = Array.from({ length: MODEL.locations }, () => {
    const browsers: SimBrowser[] = Array.from({ length: MODEL.maxBrowsersPerLocation }, () => ({ up: false, active: 0 }));
    const sendToHub = async (index: number, call: RenderCall): Promise<RenderOutcome> => {
      const browser = browsers[index]!;
      if (browser.idleTimer !== undefined) clock.clearTimeout(browser.idleTimer);
      browser.idleTimer = undefined;
      if (!browser.up) {
        browser.launching ??= launch(browser, call.launchRetryMs ?? Infinity).finally(() => (browser.launching = undefined));
        if (!(await browser.launching)) {
          return { ok: false, error: toWireError(new ApiError('browser_unavailable')), timings: {} };
        }
      }
      browser.active++;
      maxPagesSeen = Math.max(maxPagesSeen, browser.active);
      await clock.sleep(MODEL.pageBaseMs - MODEL.pageTailMeanMs * Math.log(1 - rand()));
      browser.active--;
      if (browser.active === 0) {
        browser.idleTimer = clock.setTimeout(() => {
          browser.up = false;
          account.browsers--;
        }, MODEL.idleCloseMs);
      }
      return OK;
    };
    return new FleetDirectory(sendToHub, async () => Math.max(0, account.nextLaunchAt - clock.now()), clock);
  });

  const records: Record[] = [];
  const pending: Promise<void>[] = [];
  const arrive = () => {
    const arrivedAt = clock.now();
    const directory = directories[Math.floor(rand() * MODEL.locations)]!;
    pending.push(
      directory.admit(CALL).then((outcome) => {
        records.push({
          arrivedAt,
          ms: clock.now() - arrivedAt + MODEL.hopMs,
          status: outcome.ok ? 200 : 503,
          queuedMs: outcome.timings.queue ?? 0,
        });
      }),
    );
  };
  // Poisson arrivals by thinning against the peak rate.
  const peak = Math.max(...Array.from({ length: Math.ceil(endMs / 1000) + 1 }, (_, s) => rate(s * 1000)));
  let t = 0;
  for (;;) {
    t += (-Math.log(1 - rand()) / peak) * 1000;
    if (t >= endMs) break;
    if (rand() < rate(t) / peak) clock.setTimeout(arrive, t);
  }
  await clock.runUntil(endMs + MODEL.queueTimeoutMs + 60_000);
  await Promise.all(pending);
  return { records, maxBrowsers, maxLaunchesPerSecond: Math.max(0, ...account.launchesBySecond.values()), maxPagesSeen };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface Row {
  name: string;
  requests: number;
  p50: number;
  p95: number;
  errors: number;
  errorRate: number;
  /** How long a refused request took to get its 503, p50 and p95. */
  refusedP50: number;
  refusedP95: number;
  /** Requests that waited past QUEUE_TIMEOUT_MS in the queue, or for their 503 (must be 0). */
  timeouts: number;
  maxBrowsers: number;
  maxLaunchesPerSecond: number;
  maxPagesSeen: number;
}

/** Waited past QUEUE_TIMEOUT_MS: in the queue, or until its 503 (1 ms for the float sums of arrival times). */
function waitedPastQueueTime(record: Record): boolean {
  const limit = MODEL.queueTimeoutMs + 1;
  return record.queuedMs > limit || (record.status !== 200 && record.ms - MODEL.hopMs > limit);
}

function row(name: string, result: RunResult, from: number, to: number): Row {
  const window = result.records.filter((record) => record.arrivedAt >= from && record.arrivedAt < to);
  const served = window.filter((record) => record.status === 200).map((record) => record.ms);
  const refused = window.filter((record) => record.status !== 200).map((record) => record.ms);
  const errors = refused.length;
  return {
    name,
    requests: window.length,
    p50: percentile(served, 50),
    p95: percentile(served, 95),
    errors,
    errorRate: window.length === 0 ? 0 : errors / window.length,
    refusedP50: percentile(refused, 50),
    refusedP95: percentile(refused, 95),
    timeouts: window.filter(waitedPastQueueTime).length,
    maxBrowsers: result.maxBrowsers,
    maxLaunchesPerSecond: result.maxLaunchesPerSecond,
    maxPagesSeen: result.maxPagesSeen,
  };
}

async function main() {
  const lines: string[] = [];
  const log = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  const rows: Row[] = [];
  for (const [index, rps] of [10, 100, 1000].entries()) {
    // Steady: a 60 s ramp from 0, then 60 s at the rate; figures from the second minute.
    const steady = await simulate((t) => (t < 60_000 ? (rps * t) / 60_000 : rps), 120_000, 11 + index);
    rows.push(row(`${rps} req/s, steady (after a 60 s ramp)`, steady, 60_000, 120_000));
    // A burst from cold: the full rate from the first millisecond, for 30 s.
    const burst = await simulate(() => rps, 30_000, 101 + index);
    rows.push(row(`${rps} req/s, burst from cold (30 s)`, burst, 0, 30_000));
  }

  const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : '–');
  log('# Fleet simulation (npm run sim:fleet)');
  log();
  log('How the fleet admits, queues and refuses requests at 10, 100 and 1,000 req/s: the directory the service runs');
  log('(src/browser/fleet/fleet-directory.ts, placement by src/browser/fleet/fleet-policy.ts), one per location, on a simulated');
  log('clock against a modelled Browser Rendering binding. Model:');
  log();
  log(`- ${MODEL.locations} locations, requests spread evenly at random; Poisson arrivals.`);
  log(
    `- Account: at most ${MODEL.accountBrowsers} browsers at once and 1 launch per ${MODEL.launchIntervalMs} ms (Browser Rendering's default account limits).`,
  );
  log(
    `- A launch takes ${MODEL.launchMs} ms (the first request's acquire phase here is about 1.3 s); a launch the account refuses is retried for ${MODEL.launchRetryBudgetMs} ms (the pool's retries) or what the request's queue time left if less, then 503.`,
  );
  log(
    `- A page takes ${MODEL.pageBaseMs} ms plus an exponential tail of mean ${MODEL.pageTailMeanMs} ms (mean ${MODEL.pageBaseMs + MODEL.pageTailMeanMs} ms); pages in one browser do not slow each other below the cap (the cap is the knee, docs/pages-per-browser.md).`,
  );
  log(`- ${MODEL.hopMs} ms of Durable Object hops added to every answer.`);
  log(
    `- MAX_BROWSERS_PER_LOCATION=${MODEL.maxBrowsersPerLocation}, MAX_PAGES_PER_BROWSER=${MODEL.maxPagesPerBrowser}, QUEUE_TIMEOUT_MS=${MODEL.queueTimeoutMs}, BROWSER_IDLE_CLOSE_MS=${MODEL.idleCloseMs}.`,
  );
  log();
  log(
    '| run | requests | p50 ms (200s) | p95 ms (200s) | 503s | 503 rate | 503 after p50 / p95 ms | waited past QUEUE_TIMEOUT_MS (in the queue or for a 503) | max browsers | max launches/s | max pages in a browser |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    log(
      `| ${r.name} | ${r.requests} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${r.errors} | ${(100 * r.errorRate).toFixed(1)} % | ${fmt(r.refusedP50)} / ${fmt(r.refusedP95)} | ${r.timeouts} | ${r.maxBrowsers} | ${r.maxLaunchesPerSecond} | ${r.maxPagesSeen} |`,
    );
  }
  const steady100 = rows[2]!;
  const steady1000 = rows[4]!;
  const maxBrowsers = Math.max(...rows.map((r) => r.maxBrowsers));
  log();
  log(`Page time p95 of the model: ${fmt(MODEL.pageBaseMs - MODEL.pageTailMeanMs * Math.log(0.05))} ms.`);
  log();
  log(
    `sim rps100_p95_ms=${fmt(steady100.p95)} rps100_errors=${steady100.errors} rps1000_shed=${steady1000.errorRate.toFixed(3)} rps1000_timeouts=${steady1000.timeouts} max_browsers=${maxBrowsers}`,
  );
  writeFileSync(OUT, lines.join('\n') + '\n');
}

await main();
