// `npm run bench:crawl-fairness`: whether job pages starve single fetches (docs/fleet.md "Job
// pages"). In one run, on one Worker with a small fleet: POST /api/fetch latency (p50, p90) at a
// fixed request rate on an idle fleet, then the same while a batch of many pages runs through the
// same fleet, and the ratio; and the batch's pages per second on its own (no fetches) and while the
// fetches run. Open loop: a fetch is sent every 1/RATE s whatever the answers, so a fetch that waits
// for a page shows as latency, not as a lower rate.
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile, type Sample } from './load.js';

// RATE fetches a second for PHASE_S seconds per phase (defaults 2 and 20).
const RATE_PER_S = Number(process.env.RATE ?? 2);
const PHASE_S = Number(process.env.PHASE_S ?? 20);
const BATCH_URLS = 600;
// The batch alone, between its start-up and the fetches: its throughput on an otherwise idle fleet.
const ALONE_S = 15;
// The batch's start-up: past the quiet time after the idle phase's last fetch (docs/fleet.md "Job pages").
const START_S = 8;
// One browser (a second would launch only past its pages) of PAGES_PER_BROWSER pages, by default the
// service's own 10; a batch this size keeps every page a job may take busy for the whole phase.
const PAGES_PER_BROWSER = process.env.PAGES_PER_BROWSER ?? '10';
const FLEET = { MAX_BROWSERS_PER_LOCATION: '1', MAX_PAGES_PER_BROWSER: PAGES_PER_BROWSER };
// The batch's own politeness would otherwise hold it to 4 pages at once on the one fixture host.
const UNPACED = { CRAWL_HOST_CONCURRENCY: '16', CRAWL_HOST_DELAY_MS: '1' };

/** A fetch's latency and its Server-Timing phases (ms by name: `queue` is its wait for a browser page). */
type Timed = Sample & { phases: Record<string, number> };

/** Phases whose medians are printed, in the order a request goes through them. */
const PHASES = ['queue', 'acquire', 'navigate', 'wait', 'serialize'];

async function timedFetch(worker: WorkerHandle, url: string): Promise<Timed> {
  const started = performance.now();
  const response = await worker.fetchPage({ url, wait_event: 'load', raw: true });
  await response.arrayBuffer();
  const phases: Record<string, number> = {};
  for (const [, name, ms] of (response.headers.get('Server-Timing') ?? '').matchAll(/([\w-]+);dur=([0-9.]+)/g)) phases[name!] = Number(ms);
  return { ms: performance.now() - started, status: response.status, phases };
}

/** Fetches at RATE_PER_S for PHASE_S, each on a URL of its own. */
async function fixedRate(worker: WorkerHandle, url: (index: number) => string): Promise<Timed[]> {
  const sent: Promise<Timed>[] = [];
  for (let index = 0; index < RATE_PER_S * PHASE_S; index++) {
    sent.push(timedFetch(worker, url(index)));
    await new Promise((resolve) => setTimeout(resolve, 1000 / RATE_PER_S));
  }
  return Promise.all(sent);
}

function figures(samples: Timed[]) {
  const ok = samples.filter((sample) => sample.status === 200);
  const ms = ok.map((sample) => sample.ms);
  const queue = ok.map((sample) => sample.phases.queue ?? 0);
  return {
    p50: percentile(ms, 50),
    p90: percentile(ms, 90),
    queueP50: percentile(queue, 50),
    queueP90: percentile(queue, 90),
    phaseP50: PHASES.map(
      (phase) =>
        `${phase} ${percentile(
          ok.map((sample) => sample.phases[phase] ?? 0),
          50,
        ).toFixed(0)}`,
    ).join(', '),
    refused: samples.length - ok.length,
  };
}

async function jobCall(worker: WorkerHandle, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${worker.origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** Pages of the job fetched so far. */
async function fetchedPages(worker: WorkerHandle, id: string): Promise<number> {
  const { counts } = (await jobCall(worker, 'GET', `/api/jobs/${id}`)) as { counts: Record<string, number> };
  return counts.fetched ?? 0;
}

/** The job's pages per second while `during` runs. */
async function jobRate(worker: WorkerHandle, id: string, during: () => Promise<unknown>): Promise<number> {
  const [before, started] = [await fetchedPages(worker, id), performance.now()];
  await during();
  return ((await fetchedPages(worker, id)) - before) / ((performance.now() - started) / 1000);
}

const fixtures = await startFixtureServer();
const worker = await startWorker({ vars: { ...FLEET, ...UNPACED, BROWSER_IDLE_CLOSE_MS: '3600000' } });
try {
  const page = (tag: string) => fixtures.url(`/pages/article.html?${tag}`);
  await timedFetch(worker, page('warm')); // launches the browser
  const idle = figures(await fixedRate(worker, (index) => page(`idle-${index}`)));

  const urls = Array.from({ length: BATCH_URLS }, (_, index) => page(`job-${index}`));
  const { id } = (await jobCall(worker, 'POST', '/api/batch', { urls, page: { wait_event: 'load' } })) as { id: string };
  // The job's pages take the fleet, once the idle phase's fetches are no longer about.
  await new Promise((resolve) => setTimeout(resolve, START_S * 1000));
  const alonePerS = await jobRate(worker, id, () => new Promise((resolve) => setTimeout(resolve, ALONE_S * 1000)));
  let busySamples: Timed[] = [];
  const busyPerS = await jobRate(worker, id, async () => (busySamples = await fixedRate(worker, (index) => page(`busy-${index}`))));
  const busy = figures(busySamples);
  const { counts } = (await jobCall(worker, 'GET', `/api/jobs/${id}`)) as { counts: Record<string, number> };
  await jobCall(worker, 'DELETE', `/api/jobs/${id}`);

  const f = (ms: number) => ms.toFixed(0);
  console.log(`fleet: 1 browser × ${PAGES_PER_BROWSER} pages; fetches at ${RATE_PER_S}/s for ${PHASE_S} s per phase (load, raw HTML)`);
  for (const [name, phase] of [
    ['idle fleet', idle],
    [`batch of ${BATCH_URLS} running`, busy],
  ] as const) {
    console.log(
      `${name}: p50 ${f(phase.p50)} ms, p90 ${f(phase.p90)} ms (waiting for a page: p50 ${f(phase.queueP50)}, p90 ${f(phase.queueP90)} ms), ${phase.refused} not 200`,
    );
    console.log(`  Server-Timing medians (ms): ${phase.phaseP50}`);
  }
  console.log(`job pages done by the end of the busy phase: ${counts.fetched} fetched, ${counts.failed} failed, ${counts.queued} queued`);
  console.log(`batch pages per second: ${alonePerS.toFixed(2)} alone (${ALONE_S} s), ${busyPerS.toFixed(2)} while the fetches run`);
  console.log(`ratio busy / idle: p50 ${(busy.p50 / idle.p50).toFixed(2)}×, p90 ${(busy.p90 / idle.p90).toFixed(2)}×`);
} finally {
  await worker.stop();
  await fixtures.close();
}
