// `npm run bench:fixed-cost [-- <git revision>]`: the fixed cost of a request, the service's latency
// over the page's own time in a bare browser. Page: the benchmark article without its late fetch, read
// at DOMContentLoaded as html, at concurrency 1, the browser warm.
// - bare: the same Chromium driven directly (no Worker, no Durable Object), a page opened in a fresh
//   context beforehand as the service prepares its pages, then timed: navigate to DOMContentLoaded
//   and read the DOM (page.content()). Also its whole cycle, the context's creation and closing
//   included: the floor of a fresh context per request when nothing is prepared ahead.
// - service: POST /api/fetch on the working tree, with the median of each Server-Timing phase; with a
//   revision, the service at that revision too (A), both up at once and taking turns. Two passes:
//   requests arriving at a warm service whose page is prepared (a pause of PAUSE_MS before each, the
//   time the bare browser gets untimed to prepare its page), and requests back to back (each arrives
//   while the browser still closes the previous one's context and prepares the next page).
// Overhead = service p50 − bare p50 (prepared page); back to back, against the bare whole cycle. With
// a revision, also the median of B − A within each round.
// Only 200 answers count; the others are named.
import { startFixtureServer, type FixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { PHASES } from '../../src/shared/timings.js';
import { withAbWorkers } from './ab-workers.js';
import { launchBareChromium } from './bare-chromium.js';
import { percentile } from './load.js';
import { serverTimingPhase } from './saved-pages.js';

const REQUESTS = 80;
const WARM_UP = 5;
/** Before each request of the first pass: longer than a page's preparation and a context's closing take here. */
const PAUSE_MS = 500;

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : '–');
const median = (values: number[]) => percentile(values, 50);

interface BareTimes {
  /** Navigate to DOMContentLoaded and read, in a page prepared beforehand. */
  load: number[];
  /** The same with the context's creation and closing. */
  cycle: number[];
}

/** The page's own time to DOMContentLoaded and a read of its DOM, in a bare browser, per request. */
async function bareTimes(url: string): Promise<BareTimes> {
  const browser = await launchBareChromium();
  try {
    const times: BareTimes = { load: [], cycle: [] };
    for (let i = 0; i < WARM_UP + REQUESTS; i++) {
      const opened = performance.now();
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.content();
      const loaded = performance.now();
      await context.close();
      if (i < WARM_UP) continue;
      times.load.push(loaded - started);
      times.cycle.push(performance.now() - opened);
    }
    return times;
  } finally {
    await browser.close();
  }
}

interface ServiceSample {
  ms: number;
  status: number;
  /** The answer's Server-Timing header. */
  timing: string | null;
}

async function serviceSample(worker: WorkerHandle, url: string): Promise<ServiceSample> {
  const started = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ url, wait_event: 'DOMContentLoaded', output_format: 'html', raw: true }),
  });
  await response.text();
  return { ms: performance.now() - started, status: response.status, timing: response.headers.get('Server-Timing') };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Requests taking turns between the workers (one worker: one after the other), `pauseMs` before each:
 * per worker, one sample a round (a failed one named in `failures` and left out of every figure).
 */
async function serviceSamples(workers: WorkerHandle[], url: string, pauseMs: number, failures: string[]): Promise<ServiceSample[][]> {
  const samples: ServiceSample[][] = workers.map(() => []);
  for (let i = 0; i < REQUESTS; i++) {
    const order = i % 2 === 0 ? workers.map((_, side) => side) : workers.map((_, side) => side).reverse();
    for (const side of order) {
      await pause(pauseMs);
      const sample = await serviceSample(workers[side]!, url);
      samples[side]!.push(sample);
      if (sample.status !== 200) failures.push(`${side}: ${sample.status}`);
    }
  }
  return samples;
}

const answered = (samples: ServiceSample[]) => samples.filter((s) => s.status === 200);

function report(title: string, names: string[], samples: ServiceSample[][], bareName: string, bare: number[]): void {
  const bareP50 = median(bare);
  console.log(`\n## ${title}\n`);
  console.log(`| run | answered | latency p50 | p90 | overhead p50 | ${PHASES.join(' | ')} |`);
  console.log(`|---|---|---|---|---|${PHASES.map(() => '---|').join('')}`);
  console.log(
    `| ${bareName} | ${bare.length} | ${fmt(bareP50)} | ${fmt(percentile(bare, 90))} | – | ${PHASES.map(() => '–').join(' | ')} |`,
  );
  samples.forEach((all, side) => {
    const runs = answered(all);
    const latencies = runs.map((s) => s.ms);
    const phases = PHASES.map((phase) => fmt(median(runs.map((s) => serverTimingPhase(s.timing, phase)).filter(Number.isFinite))));
    console.log(
      `| ${names[side]} | ${runs.length} | ${fmt(median(latencies))} | ${fmt(percentile(latencies, 90))} | ${fmt(median(latencies) - bareP50)} | ${phases.join(' | ')} |`,
    );
  });
  if (samples.length === 2) {
    // Both sides of a round ran back to back: their difference leaves out what drifts over the run.
    const [a, b] = samples as [ServiceSample[], ServiceSample[]];
    const rounds = a.flatMap((sa, i) => (sa.status === 200 && b[i]!.status === 200 ? [b[i]!.ms - sa.ms] : []));
    console.log(`\n- ${names[1]} − ${names[0]}, the same round: median ${fmt(median(rounds))} ms over ${rounds.length} rounds`);
  }
}

async function main() {
  const revision = process.argv[2];
  const failures: string[] = [];
  const measure = async (workers: WorkerHandle[], names: string[], fixtures: FixtureServer) => {
    const url = fixtures.url('/bench/article?fetch_ms=0');
    const bare = await bareTimes(url);
    console.log(`# Fixed cost: benchmark article, DOMContentLoaded, html, concurrency 1, ${REQUESTS} requests each`);
    for (const worker of workers) for (let i = 0; i < WARM_UP; i++) await serviceSample(worker, url); // launches each browser
    report(
      `A warm service, its page prepared (${PAUSE_MS} ms before each request)`,
      names,
      await serviceSamples(workers, url, PAUSE_MS, failures),
      'bare browser, page prepared',
      bare.load,
    );
    report(
      'Back to back (against the bare browser with a fresh context made and closed per request)',
      names,
      await serviceSamples(workers, url, 0, failures),
      'bare browser, whole cycle',
      bare.cycle,
    );
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  };
  if (revision !== undefined) {
    await withAbWorkers(revision, (a, b, fixtures) => measure([a, b], [`service at ${revision}`, 'service (working tree)'], fixtures));
    return;
  }
  const fixtures = await startFixtureServer();
  const worker = await startWorker();
  try {
    await measure([worker], ['service'], fixtures);
  } finally {
    await worker.stop();
    await fixtures.close();
  }
}

await main();
