// `npm run bench:crawl`: what the site-job machinery costs (docs/sites.md "Throughput and memory").
// On one Worker in one run, a generated site of PAGES pages (link-site.ts) is crawled with pacing
// lifted, and the same URLs are fetched by POST /api/fetch calls at the same number of pages
// rendering at once; the two alternate ROUNDS times, and the crawl's time over the fetches' is the
// machinery's cost. Then the same crawl at the default pacing, on a Worker of its own.
// `PAGES=10000 npm run bench:crawl` runs the large crawl alone: its time, whether its counts add up
// and its records page out whole by the cursor, and the job's storage and the Worker's memory.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jobPageCap } from '../../src/browser/fleet/fleet-policy.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { startLinkSite, type LinkSite } from './link-site.js';
import { runLoad } from './load.js';
import { CpuMeter, commandLine, parentPid, processTree, treeResidentMib } from './process-cpu.js';
import { connectHeap, type WorkerHeap } from './worker-heap.js';

const PAGES = Number(process.env.PAGES ?? 1000);
/** A large crawl runs alone: its fetches and its default pacing would take hours here. */
const COMPARE = PAGES <= 2000;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** The large crawl stops (is cancelled) after this many minutes and reports how far it got. */
const MAX_MINUTES = Number(process.env.MAX_MINUTES ?? 120);
const PAGE = { output_format: 'markdown', wait_event: 'load' } as const;

// "The same concurrency" is the same number of pages rendering at once. wrangler dev's queue hands
// the consumer one batch at a time and the handler runs a batch's tasks at once, so a crawl renders
// at most max_batch_size pages; the fleet's share for job pages is made at least that, and the
// fetches run with that many clients.
const BATCH = Number(/max_batch_size\s*=\s*(\d+)/.exec(readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8'))![1]);
const RENDERING = BATCH;
let pagesPerBrowser = RENDERING;
while (jobPageCap({ maxBrowsers: 1, maxPages: pagesPerBrowser, idleCloseMs: 0 }, { withFetches: false, turnCome: true }) < RENDERING)
  pagesPerBrowser++;
const FLEET = { MAX_BROWSERS_PER_LOCATION: '1', MAX_PAGES_PER_BROWSER: String(pagesPerBrowser), BROWSER_IDLE_CLOSE_MS: '3600000' };
/** Enough tasks on the queue that a batch is always full; the pacing delay lifted. */
const LIFTED = { CRAWL_HOST_DELAY_MS: '0', CRAWL_HOST_CONCURRENCY: String(RENDERING * 8) };
const COMMON = { MAX_CRAWL_PAGES: String(Math.max(PAGES, 10_000)), JOB_PAGE_BYTES: String(256 * 1024) };

interface Record_ {
  url: string;
  state: string;
  depth: number;
  data: string | null;
}
interface JobAnswer {
  status: string;
  counts: Record<string, number>;
  pages: Record_[];
  next_cursor: string | null;
}

async function call(worker: WorkerHandle, method: string, path: string, body?: unknown, retried = false): Promise<Response> {
  try {
    return await fetch(`${worker.origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${TEST_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    // A kept-alive connection the dev server closed as it was reused: the request never reached the Worker.
    if (retried || (error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return call(worker, method, path, body, true);
  }
}

async function readJob(worker: WorkerHandle, id: string, cursor: string | null): Promise<JobAnswer> {
  const response = await call(worker, 'GET', `/api/jobs/${id}${cursor === null ? '' : `?cursor=${cursor}`}`);
  if (response.status !== 200) throw new Error(`GET /api/jobs/${id}: ${response.status} ${await response.text()}`);
  return (await response.json()) as JobAnswer;
}

/** Every record from the first, by the cursor; also how many answers that took. */
async function pageOut(worker: WorkerHandle, id: string): Promise<{ records: Record_[]; answers: number; last: JobAnswer }> {
  const records: Record_[] = [];
  let cursor: string | null = null;
  let answers = 0;
  for (;;) {
    const answer = await readJob(worker, id, cursor);
    answers++;
    records.push(...answer.pages);
    if (answer.next_cursor === null) return { records, answers, last: answer };
    cursor = answer.next_cursor;
  }
}

/** The Worker runtime's processes (workerd) and the browsers', found from a browser's parent: wrangler. */
function processesOf(worker: WorkerHandle): { workerd: number[]; browsers: number[] } {
  const browserPids = worker.liveBrowserPids();
  const wrangler = parentPid(browserPids[0]!)!;
  const tree = processTree(wrangler);
  return {
    workerd: tree.filter((pid) => commandLine(pid).includes('workerd')),
    browsers: browserPids.flatMap(processTree),
  };
}

interface Phase {
  ms: number;
  workerdCpuMs: number;
  browserCpuMs: number;
}

async function measured<T>(worker: WorkerHandle, run: () => Promise<T>): Promise<[Phase, T]> {
  const workerd = new CpuMeter(() => processesOf(worker).workerd);
  const browsers = new CpuMeter(() => processesOf(worker).browsers);
  const started = performance.now();
  const value = await run();
  const ms = performance.now() - started;
  return [{ ms, workerdCpuMs: workerd.stop(), browserCpuMs: browsers.stop() }, value];
}

/** The job's SQLite files (database and write-ahead log) in wrangler dev's state folder, by name. */
function siteJobFiles(worker: WorkerHandle): Map<string, number> {
  const port = worker.origin.split(':').at(-1);
  const root = join('/tmp/page-fetch-chromium/wrangler-state', `state-${port}`);
  const sizes = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.includes('SiteJob') && /\.sqlite(-wal)?$/.test(entry.name)) sizes.set(path, statSync(path).size);
    }
  };
  walk(root);
  return sizes;
}

interface CrawlRun {
  id: string;
  ms: number;
  answer: JobAnswer;
  /** Records read while the crawl ran (by the cursor, a few at a time). */
  seen: number;
  peakWorkerdMib: number;
  /** The isolate's heap at most (MiB), read every HEAP_EVERY_MS when a heap reader is given. */
  peakHeapMib?: number;
}

/** How often a large crawl reads the isolate's heap: a read is one inspector round trip. */
const HEAP_EVERY_MS = 5000;

/** Starts a crawl of the site and waits for its end, reading its new records as they come. */
async function crawl(worker: WorkerHandle, site: LinkSite, limit: number, deadlineMs = Infinity, heap?: WorkerHeap): Promise<CrawlRun> {
  const started = performance.now();
  const response = await call(worker, 'POST', '/api/crawl', {
    url: site.urls[0],
    limit,
    max_depth: 10,
    sitemap: 'skip',
    page: PAGE,
  });
  if (response.status !== 202) throw new Error(`POST /api/crawl: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  let cursor: string | null = null;
  let seen = 0;
  let peakWorkerdMib = 0;
  let peakHeapMib: number | undefined;
  let heapReadAt = 0;
  let lastProgress = performance.now();
  for (;;) {
    const answer = await readJob(worker, id, cursor);
    seen += answer.pages.length;
    peakWorkerdMib = Math.max(peakWorkerdMib, treeResidentMib(processesOf(worker).workerd));
    if (heap !== undefined && performance.now() - heapReadAt >= HEAP_EVERY_MS) {
      heapReadAt = performance.now();
      peakHeapMib = Math.max(peakHeapMib ?? 0, await heap.usedMib());
    }
    if (answer.pages.length > 0) lastProgress = performance.now();
    if ((answer.status !== 'queued' && answer.status !== 'running') || performance.now() - started > deadlineMs) {
      return { id, ms: performance.now() - started, answer, seen, peakWorkerdMib, ...(peakHeapMib === undefined ? {} : { peakHeapMib }) };
    }
    if (performance.now() - lastProgress > 120_000)
      throw new Error(`crawl ${id} made no progress for 2 min: ${JSON.stringify(answer.counts)}`);
    cursor = answer.next_cursor;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function fetchAll(worker: WorkerHandle, urls: string[]): Promise<number> {
  let next = 0;
  const { samples } = await runLoad(
    async () => {
      const url = urls[next++]!;
      const started = performance.now();
      try {
        const response = await worker.fetchPage({ url, ...PAGE });
        await response.arrayBuffer();
        return { ms: performance.now() - started, status: response.status };
      } catch {
        return { ms: performance.now() - started, status: 0 }; // the connection broke: counted as not 200
      }
    },
    RENDERING,
    urls.length,
  );
  return samples.filter((sample) => sample.status !== 200).length;
}

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const perPage = (phase: Phase, pages: number) =>
  `${f1(pages / (phase.ms / 1000))} pages/s; CPU per page: workerd ${f1(phase.workerdCpuMs / pages)} ms, browser ${f1(phase.browserCpuMs / pages)} ms`;

/** Whether a crawl's counts add up: every page of the site once, each record counted by its state. */
function tally(run: CrawlRun, records: Record_[], pages: number): string[] {
  const counts = run.answer.counts;
  const byState = new Map<string, number>();
  for (const record of records) byState.set(record.state, (byState.get(record.state) ?? 0) + 1);
  const decided = ['fetched', 'failed', 'blocked', 'skipped', 'disallowed'].reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  const distinct = new Set(records.map((record) => record.url)).size;
  const countsMatch = [...byState].every(([state, n]) => counts[state] === n);
  // A cancelled crawl holds what it decided before the cancel; a completed one every page of the site.
  const whole = run.answer.status === 'completed' ? counts.queued === 0 && distinct === pages : run.answer.status === 'cancelled';
  const empty = records.filter((record) => record.state === 'fetched' && !record.data).length;
  return [
    `status ${run.answer.status}; counts ${JSON.stringify(counts)}`,
    `records paged out: ${records.length} (${distinct} distinct URLs of the site's ${pages}); counts' sum ${decided}; counts match the records' states: ${countsMatch}; fetched records without content: ${empty}`,
    `adds up: ${whole && decided === records.length && distinct === records.length && countsMatch}`,
  ];
}

async function compare(site: LinkSite): Promise<void> {
  const worker = await startWorker({ vars: { ...FLEET, ...LIFTED, ...COMMON } });
  try {
    await worker.fetchPage({ url: site.urls[0], ...PAGE }); // launches the browser
    await crawl(worker, site, 20); // the job's Durable Object and the queue consumer warm
    const fetches: Phase[] = [];
    const crawls: Phase[] = [];
    let refused = 0;
    let lastCrawl: CrawlRun | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const runFetches = async () => {
        const [phase, notOk] = await measured(worker, () => fetchAll(worker, site.urls));
        fetches.push(phase);
        refused += notOk;
      };
      const runCrawl = async () => {
        const [phase, run] = await measured(worker, () => crawl(worker, site, PAGES));
        crawls.push(phase);
        lastCrawl = run;
      };
      // Alternate which goes first, so a drift of the machine's load falls on both.
      if (round % 2 === 0) await runFetches().then(runCrawl);
      else await runCrawl().then(runFetches);
      const ratio = crawls.at(-1)!.ms / fetches.at(-1)!.ms;
      console.log(
        `round ${round + 1}: fetches ${f0(fetches.at(-1)!.ms)} ms, crawl ${f0(crawls.at(-1)!.ms)} ms, crawl / fetches ${ratio.toFixed(3)}`,
      );
    }
    const sum = (phases: Phase[]): Phase => ({
      ms: phases.reduce((total, phase) => total + phase.ms, 0),
      workerdCpuMs: phases.reduce((total, phase) => total + phase.workerdCpuMs, 0),
      browserCpuMs: phases.reduce((total, phase) => total + phase.browserCpuMs, 0),
    });
    const fetched = sum(fetches);
    const crawled = sum(crawls);
    const pages = PAGES * ROUNDS;
    console.log(
      `\n${PAGES} pages × ${ROUNDS} rounds, ${RENDERING} pages rendering at once (1 browser × ${pagesPerBrowser} pages, queue batch ${BATCH}), ${JSON.stringify(PAGE)}`,
    );
    console.log(`POST /api/fetch: ${perPage(fetched, pages)}; ${refused} not 200`);
    console.log(`crawl, pacing lifted: ${perPage(crawled, pages)}`);
    console.log(
      `crawl time / fetch time: ${(crawled.ms / fetched.ms).toFixed(3)} (target ≤ 1.10); workerd CPU: ${(crawled.workerdCpuMs / fetched.workerdCpuMs).toFixed(2)}×`,
    );
    const { records } = await pageOut(worker, lastCrawl!.id);
    for (const line of tally(lastCrawl!, records, PAGES)) console.log(`last crawl: ${line}`);
  } catch (error) {
    console.error(worker.logs().split('\n').slice(-40).join('\n'));
    throw error;
  } finally {
    await worker.stop();
  }
}

async function defaultPacing(site: LinkSite): Promise<void> {
  const worker = await startWorker({ vars: { ...FLEET, ...COMMON } });
  try {
    await worker.fetchPage({ url: site.urls[0], ...PAGE });
    const [phase, run] = await measured(worker, () => crawl(worker, site, PAGES));
    console.log(
      `crawl at the default pacing (CRAWL_HOST_DELAY_MS 250, CRAWL_HOST_CONCURRENCY 4): ${perPage(phase, PAGES)}, ${run.answer.status}`,
    );
  } finally {
    await worker.stop();
  }
}

async function large(site: LinkSite): Promise<void> {
  const worker = await startWorker({ vars: { ...FLEET, ...LIFTED, ...COMMON } });
  try {
    await worker.fetchPage({ url: site.urls[0], ...PAGE });
    const before = siteJobFiles(worker);
    const idleMib = treeResidentMib(processesOf(worker).workerd);
    const heap = await connectHeap(worker.inspectorPort);
    const idleHeapMib = await heap.usedMib(true);
    const [phase, run] = await measured(worker, () => crawl(worker, site, PAGES, MAX_MINUTES * 60_000, heap));
    const done = run.answer.counts.fetched ?? 0;
    if (run.answer.status === 'running') {
      console.log(`stopped after ${MAX_MINUTES} min (MAX_MINUTES): ${done} of ${PAGES} pages fetched; the crawl is cancelled`);
      await call(worker, 'DELETE', `/api/jobs/${run.id}`);
      // A cursor past every record: the job's view alone.
      run.answer = await readJob(worker, run.id, '999999999999999');
    }
    console.log(`crawl of ${PAGES} pages, pacing lifted, ${JSON.stringify(PAGE)}: ${f0(phase.ms / 1000)} s, ${perPage(phase, done)}`);
    const reading = performance.now();
    const { records, answers } = await pageOut(worker, run.id);
    console.log(
      `paged out whole: ${records.length} records in ${answers} answers (JOB_PAGE_BYTES ${COMMON.JOB_PAGE_BYTES}), ${f0(performance.now() - reading)} ms`,
    );
    for (const line of tally(run!, records, PAGES)) console.log(line);
    const files = [...siteJobFiles(worker)].filter(([path]) => !before.has(path) || path.endsWith('-wal'));
    const jobBytes = files.reduce((total, [, size]) => total + size, 0);
    console.log(
      `the job's SQLite storage: ${f1(jobBytes / 1024 / 1024)} MiB (${files.map(([path, size]) => `${path.split('/').at(-1)} ${f1(size / 1024 / 1024)} MiB`).join(', ')})`,
    );
    console.log(
      `workerd resident memory: ${f0(idleMib)} MiB before the crawl, ${f0(run.peakWorkerdMib)} MiB at most during it, ${f0(treeResidentMib(processesOf(worker).workerd))} MiB after paging out`,
    );
    console.log(
      `the Worker isolate's heap (the Worker and its Durable Objects): ${f1(idleHeapMib)} MiB before the crawl (after a full collection), ${f1(run.peakHeapMib ?? NaN)} MiB at most during it (read every ${HEAP_EVERY_MS / 1000} s), ${f1(await heap.usedMib(true))} MiB after paging out (after a full collection)`,
    );
    heap.close();
  } finally {
    await worker.stop();
  }
}

const site = await startLinkSite(PAGES);
try {
  if (COMPARE) {
    await compare(site);
    await defaultPacing(site);
  } else {
    await large(site);
  }
} finally {
  await site.close();
}
