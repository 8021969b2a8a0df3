// `npm run bench:worker-cpu`: the Worker's CPU per request, by phase, for a plain page (markdown and
// html), a consent page and a PDF. The real Worker runs under wrangler dev from a copy of the sources
// with the benchmark's configuration (no rate limiter), against the fixture server. After WARMUP (3)
// requests of every kind, each kind is sent REQUESTS (20) times, one at a time, twice: first with
// nothing attached, where /proc gives what workerd spends per request (workerd-threads.ts: the
// isolate's thread, the Worker's other threads, wrangler's proxy); then while V8's sampling profiler
// runs in the Worker's isolate (worker-profiler.ts, every INTERVAL_US µs), whose samples are charged
// to the request's phases by their stacks (profile-phases.ts, through the bundle's source map,
// source-map-lookup.ts). V8 samples only while the isolate's lock is held, so a phase's ms is its
// samples times the sampler's period: JavaScript and what it calls into synchronously. The isolate
// thread's CPU from /proc less that sum is what no sample stands for: workerd's native work outside
// the lock (its I/O: HTTP, the WebSocket to the browser, RPC to the Durable Objects), and time under
// the lock the sampler missed when it was itself kept waiting for a core. The profiler's own
// cost (a signal to the isolate's thread every interval, a sampling thread) inflates /proc in the
// second pass, so the first pass is the cost and the second the split. PROFILES=<dir> keeps each
// kind's profile (.cpuprofile, for DevTools) and the bundle's source map.
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { type Charge, chargeProfile } from './profile-phases.js';
import { reloadCount, snapshotSources } from './snapshot.js';
import { readSourceMap, type SourceLookup } from './source-map-lookup.js';
import { connectProfiler, type WorkerProfiler } from './worker-profiler.js';
import { cpuSince, findWorkerd, readWorkerdCpu, type WorkerdCpu, type WorkerdProcesses } from './workerd-threads.js';

const REQUESTS = Number(process.env.REQUESTS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 3);
const INTERVAL_US = Number(process.env.INTERVAL_US ?? 250);
const PROFILES = process.env.PROFILES;
/** The module rows shown per kind. */
const TOP_MODULES = 12;

interface Kind {
  name: string;
  path: string;
  body: Record<string, unknown>;
}

const ARTICLE = '/bench/article?fetch_ms=300';
const KINDS: Kind[] = [
  { name: 'plain, markdown', path: ARTICLE, body: { output_format: 'markdown' } },
  { name: 'plain, html', path: ARTICLE, body: { output_format: 'html' } },
  { name: 'consent', path: '/consent/onetrust', body: { output_format: 'markdown' } },
  { name: 'PDF', path: '/pdf/report.pdf', body: { output_format: 'markdown' } },
];

interface Result {
  kind: Kind;
  charge: Charge;
  /** workerd's CPU over the pass without the profiler, and over the profiled one. */
  plain: WorkerdCpu;
  profiled: WorkerdCpu;
  answered: number;
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The bundle wrangler dev serves: the newest .wrangler/tmp/dev-*\/index.js beside the configuration, and its map. */
function bundleSourceMapPath(config: string): string {
  const tmp = join(dirname(config), '.wrangler/tmp');
  const builds = readdirSync(tmp)
    .filter((name) => name.startsWith('dev-'))
    .map((name) => join(tmp, name, 'index.js.map'))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (builds[0] === undefined) throw new Error(`no bundle source map under ${tmp}`);
  return builds[0];
}

async function send(worker: WorkerHandle, url: string, kind: Kind, failures: string[]): Promise<boolean> {
  const response = await worker.fetchPage({ url, raw: true, wait_event: 'networkIdle', ...kind.body });
  const text = await response.text();
  if (response.status === 200) return true;
  failures.push(`${kind.name} ${response.status}: ${text.slice(0, 200)}`);
  return false;
}

async function measure(
  worker: WorkerHandle,
  profiler: WorkerProfiler,
  workerd: WorkerdProcesses,
  lookup: SourceLookup,
  url: string,
  kind: Kind,
  failures: string[],
): Promise<Result> {
  const pass = async () => {
    const before = readWorkerdCpu(workerd);
    let answered = 0;
    for (let i = 0; i < REQUESTS; i++) if (await send(worker, url, kind, failures)) answered++;
    return { answered, cpu: cpuSince(before, readWorkerdCpu(workerd)) };
  };
  const plain = await pass();
  await profiler.start(INTERVAL_US);
  const profiled = await pass();
  const profile = await profiler.stop();
  if (PROFILES !== undefined) writeFileSync(join(PROFILES, `${kind.name.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
  if (plain.answered !== REQUESTS) failures.push(`${kind.name}: ${REQUESTS - plain.answered} unanswered without the profiler`);
  return {
    kind,
    charge: chargeProfile(profile, lookup, 'index.js', INTERVAL_US),
    plain: plain.cpu,
    profiled: profiled.cpu,
    answered: profiled.answered,
  };
}

/** ms per answered request of a number of samples, each standing for the sampler's period. */
const sampledMs = (result: Result, samples: number) => (samples * result.charge.periodUs) / 1000 / result.answered;
/** The isolate thread's CPU per request (/proc, no profiler) that no sample stands for. */
const outsideMs = (result: Result) => result.plain.isolateThread / REQUESTS - sampledMs(result, result.charge.samples);
const share = (result: Result, samples: number) => `${fmt((100 * samples) / result.charge.samples, 0)} %`;

function printKind(result: Result): void {
  const { charge, plain, profiled: cpu, kind } = result;
  const profiled = sampledMs(result, charge.samples);
  console.log(`\n## ${kind.name}: ${kind.path}, ${JSON.stringify(kind.body)}\n`);
  console.log(
    `${result.answered} answered of ${REQUESTS}; ${charge.samples} samples, sampler's period while busy ${fmt(charge.periodUs, 0)} µs (asked ${INTERVAL_US})`,
  );
  const proc = (label: string, { isolateThread, otherThreads, proxy }: WorkerdCpu) =>
    console.log(
      `- ${label}: isolate thread ${fmt(isolateThread / REQUESTS)} ms, other threads of the Worker ` +
        `${fmt(otherThreads / REQUESTS)} ms, wrangler's proxy workerd ${fmt(proxy / REQUESTS)} ms`,
    );
  console.log(`- profile: ${fmt(profiled)} ms per request under the isolate's lock; not in the profile ${fmt(outsideMs(result))} ms`);
  proc('/proc per request, no profiler', plain);
  proc('/proc per request, profiled', cpu);
  const table = (heading: string, rows: [string, number][]) => {
    console.log(`\n| ${heading} | samples | share | ms/request |\n|---|---|---|---|`);
    for (const [name, samples] of rows) {
      console.log(`| ${name} | ${samples} | ${share(result, samples)} | ${fmt(sampledMs(result, samples))} |`);
    }
  };
  table(
    'phase',
    [...charge.phases].sort((a, b) => b[1] - a[1]),
  );
  table(`leaf module (top ${TOP_MODULES})`, [...charge.modules].sort((a, b) => b[1] - a[1]).slice(0, TOP_MODULES));
}

function printSummary(results: Result[]): void {
  const phases = new Map<string, number>();
  for (const { charge } of results) for (const [phase, samples] of charge.phases) phases.set(phase, (phases.get(phase) ?? 0) + samples);
  const rows = [...phases.keys()].sort((a, b) => phases.get(b)! - phases.get(a)!);
  console.log(`\n## Worker CPU ms per request by phase (samples × period; share of the samples), and /proc\n`);
  console.log(`| phase | ${results.map((r) => r.kind.name).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---|').join('')}`);
  for (const phase of rows) {
    const cell = (r: Result) => `${fmt(sampledMs(r, r.charge.phases.get(phase) ?? 0))} (${share(r, r.charge.phases.get(phase) ?? 0)})`;
    console.log(`| ${phase} | ${results.map(cell).join(' | ')} |`);
  }
  const line = (label: string, value: (r: Result) => number) =>
    console.log(`| ${label} | ${results.map((r) => fmt(value(r))).join(' | ')} |`);
  line('**profile: all samples, under the isolate lock**', (r) => sampledMs(r, r.charge.samples));
  line('isolate thread, not in the profile (/proc − profile)', outsideMs);
  line('/proc, no profiler: isolate thread', (r) => r.plain.isolateThread / REQUESTS);
  line('/proc, no profiler: other threads of the Worker', (r) => r.plain.otherThreads / REQUESTS);
  line("/proc, no profiler: wrangler's proxy workerd", (r) => r.plain.proxy / REQUESTS);
  line('/proc, profiled: isolate thread', (r) => r.profiled.isolateThread / REQUESTS);
}

async function main() {
  const fixtures = await startFixtureServer();
  const sources = snapshotSources();
  let worker: WorkerHandle | undefined;
  let profiler: WorkerProfiler | undefined;
  const failures: string[] = [];
  try {
    worker = await startWorker({ config: sources.config, vars: { BROWSER_IDLE_CLOSE_MS: '3600000' } });
    for (const kind of KINDS) for (let i = 0; i < WARMUP; i++) await send(worker, fixtures.url(kind.path), kind, failures);
    const [browserPid] = worker.liveBrowserPids();
    if (browserPid === undefined) throw new Error('the service launched no browser');
    const workerd = findWorkerd(parentOf(browserPid));
    const mapPath = bundleSourceMapPath(sources.config);
    const lookup = readSourceMap(JSON.parse(readFileSync(mapPath, 'utf8')));
    if (PROFILES !== undefined) copyFileSync(mapPath, join(PROFILES, 'index.js.map'));
    profiler = await connectProfiler(worker.inspectorPort);
    console.log(`# Worker CPU per request by phase: ${REQUESTS} requests a kind, one at a time, networkIdle, raw`);
    const results: Result[] = [];
    for (const kind of KINDS) {
      const result = await measure(worker, profiler, workerd, lookup, fixtures.url(kind.path), kind, failures);
      results.push(result);
      printKind(result);
    }
    printSummary(results);
    console.log(`\n- Worker reloads: ${reloadCount(worker.logs())}; browsers launched: ${worker.launchedBrowserCount()}`);
    console.log(`- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    profiler?.close();
    await worker?.stop();
    await fixtures.close();
    sources.remove();
  }
}

await main();
