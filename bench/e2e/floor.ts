// `npm run bench:floor`: what a request costs the machine in the service against a bare browser, in
// one run. The service is the real Worker under wrangler dev (from a copy of the sources, with the
// benchmark's configuration: no rate limiter); the floor is the same Chromium binary, launched with
// the service's browser's own switches, driven over raw CDP (floor-driver.ts: a fresh context per
// request, the same networkIdle definition, one read; FLOOR_SPARES pages opened ahead, none unless
// set). Both load the same page from the fixture
// server, html at networkIdle, at concurrency 1, 4 and 8, REQUESTS (24) requests a phase, the two
// sides taking turns (which goes first alternates), ROUNDS (3) rounds; figures are each round's and
// the medians over rounds. Per phase: requests per second and CPU ms per request by process class,
// read from /proc (process-class-cpu.ts) — browser (Chromium's processes), Worker (workerd), wrangler's
// Node, and this benchmark's own process (load client, fixture server, the floor's CDP driver, the
// /proc sampler) — with the processes each browser started per request and the browsers the service
// launched during the phase. Only 200 answers count; others are named.
import { readFileSync } from 'node:fs';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { launchPipeBrowser, type PipeBrowser } from './cdp-pipe.js';
import { type FloorPage, floorRequest, openFloorPage } from './floor-driver.js';
import { runLoad, type Sample } from './load.js';
import { CpuMeter, ownCpuMs, type ProcessClass } from './process-class-cpu.js';
import { reloadCount, snapshotSources } from './snapshot.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REQUESTS = Number(process.env.REQUESTS ?? 24);
const CONCURRENCIES = [1, 4, 8];
const PAGE = process.env.PAGE ?? '/bench/article?fetch_ms=300';
/**
 * FLOOR_SPARES=n keeps n pages opened ahead on the floor, each replaced once the request that took it
 * is done (as the service's pool keeps SPARE_PAGES): the floor with the service's preparing ahead.
 */
const FLOOR_SPARES = Number(process.env.FLOOR_SPARES ?? 0);
/** SIDES=service measures the service alone (a page the floor cannot read as the service does, a PDF). */
const SIDES = (process.env.SIDES ?? 'floor,service').split(',') as Side[];

interface Phase {
  rps: number;
  failed: number;
  /** CPU ms per answered request, by class. */
  browser: number;
  worker: number;
  wrangler: number;
  bench: number;
  /** Processes the browser started, per answered request. */
  processes: number;
  /** Browsers the service launched during the phase. */
  launches: number;
  /** CDP messages per request (the floor's, both ways). */
  messages: number;
  /** Answered requests, and the processes the browser started by kind (process-class-cpu.ts), for the totals. */
  answered: number;
  kinds: Map<string, number>;
}

type Side = 'service' | 'floor';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

async function measure(
  classes: ProcessClass[],
  run: () => Promise<Sample[]>,
  extra: () => { launches: number; messages: number },
): Promise<Phase> {
  const before = extra();
  const benchBefore = ownCpuMs();
  const meter = new CpuMeter(classes);
  const began = performance.now();
  const samples = await run();
  const wallMs = performance.now() - began;
  const readings = meter.stop();
  const bench = ownCpuMs() - benchBefore;
  const after = extra();
  const ok = samples.filter((s) => s.status === 200).length;
  const per = (value: number) => value / ok;
  const cpu = (name: string) => per(readings.get(name)?.cpuMs ?? NaN);
  return {
    rps: (ok / wallMs) * 1000,
    failed: samples.length - ok,
    browser: cpu('browser'),
    worker: cpu('worker'),
    wrangler: cpu('wrangler'),
    bench: per(bench),
    processes: per(readings.get('browser')?.started ?? NaN),
    launches: after.launches - before.launches,
    messages: per(after.messages - before.messages),
    answered: ok,
    kinds: readings.get('browser')?.startedKinds ?? new Map(),
  };
}

function serviceClasses(worker: WorkerHandle, wranglerPid: number): ProcessClass[] {
  return [
    { name: 'browser', roots: () => worker.liveBrowserPids() },
    {
      name: 'worker',
      roots: (stats) => [...stats.values()].filter((s) => s.parent === wranglerPid && s.command === 'workerd').map((s) => s.pid),
    },
    { name: 'wrangler', roots: () => [wranglerPid], ownOnly: true },
  ];
}

async function main() {
  const fixtures = await startFixtureServer();
  const sources = snapshotSources();
  let worker: WorkerHandle | undefined;
  let floor: PipeBrowser | undefined;
  const failures: string[] = [];
  try {
    worker = await startWorker({ config: sources.config, vars: { BROWSER_IDLE_CLOSE_MS: '3600000' } });
    const url = fixtures.url(PAGE);
    const service = worker;
    const sendService = async (): Promise<Sample> => {
      const started = performance.now();
      const response = await fetch(`${service.origin}/api/fetch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
        body: JSON.stringify({ url, output_format: 'html', wait_event: 'networkIdle', raw: true }),
      });
      const body = await response.text();
      if (response.status !== 200) failures.push(`service ${response.status}: ${body.slice(0, 200)}`);
      return { ms: performance.now() - started, status: response.status };
    };
    await runLoad(sendService, 1, 3); // launches the service's browser
    const [browserPid] = worker.liveBrowserPids();
    if (browserPid === undefined) throw new Error('the service launched no browser');
    const wranglerPid = parentOf(browserPid);
    const [executable, ...args] = commandLine(browserPid);
    floor = launchPipeBrowser(executable!, args);
    const bare = floor;
    const spares: Promise<FloorPage | undefined>[] = [];
    const topUpSpares = () => {
      while (spares.length < FLOOR_SPARES) spares.push(openFloorPage(bare).catch(() => undefined));
    };
    const sendFloor = async (): Promise<Sample> => {
      const started = performance.now();
      const spare = spares.shift();
      if (spare === undefined) topUpSpares();
      try {
        await floorRequest(bare, url, undefined, await spare);
        return { ms: performance.now() - started, status: 200 };
      } catch (error) {
        failures.push(`floor: ${String(error)}`);
        return { ms: performance.now() - started, status: 0 };
      } finally {
        topUpSpares();
      }
    };
    if (SIDES.includes('floor')) await runLoad(sendFloor, 1, 3);
    await runLoad(sendService, 8, 8); // the service's pages at the width of the widest phase
    if (SIDES.includes('floor')) await runLoad(sendFloor, 8, 8);

    const sides: Record<
      Side,
      { classes: ProcessClass[]; send: () => Promise<Sample>; extra: () => { launches: number; messages: number } }
    > = {
      service: {
        classes: serviceClasses(worker, wranglerPid),
        send: sendService,
        extra: () => ({ launches: service.launchedBrowserCount(), messages: NaN }),
      },
      floor: {
        classes: [{ name: 'browser', roots: () => [bare.pid] }],
        send: sendFloor,
        extra: () => {
          const { sent, received } = bare.messages();
          return { launches: 0, messages: sent + received };
        },
      },
    };
    const results = new Map<string, Phase[]>();
    console.log(`# Service against a bare browser: ${PAGE}, html, networkIdle, ${REQUESTS} requests a phase, ${ROUNDS} rounds\n`);
    console.log(
      '| round | concurrency | side | req/s | failed | browser CPU ms/req | workerd | wrangler | bench process | processes/req | launches | CDP msgs/req |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (let round = 1; round <= ROUNDS; round++) {
      for (const concurrency of CONCURRENCIES) {
        const order: Side[] = (round + concurrency) % 2 === 0 ? ['service', 'floor'] : ['floor', 'service'];
        for (const side of order.filter((side) => SIDES.includes(side))) {
          const { classes, send, extra } = sides[side];
          const phase = await measure(classes, async () => (await runLoad(send, concurrency, REQUESTS)).samples, extra);
          const key = `${side} ${concurrency}`;
          results.set(key, [...(results.get(key) ?? []), phase]);
          console.log(
            `| ${round} | ${concurrency} | ${side} | ${fmt(phase.rps, 2)} | ${phase.failed} | ${fmt(phase.browser)} | ${fmt(phase.worker)} | ${fmt(phase.wrangler)} | ${fmt(phase.bench)} | ${fmt(phase.processes, 2)} | ${phase.launches} | ${fmt(phase.messages)} |`,
          );
        }
      }
    }
    console.log(`\n## Medians over ${ROUNDS} rounds (service ÷ floor in the last columns)\n`);
    console.log(
      '| concurrency | side | req/s | browser CPU ms/req | workerd | wrangler | bench process | processes/req | launches | CDP msgs/req | req/s ratio | browser CPU ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const concurrency of CONCURRENCIES) {
      const of = (side: Side, field: Exclude<keyof Phase, 'kinds'>) =>
        median(results.get(`${side} ${concurrency}`)!.map((phase) => phase[field]));
      for (const side of SIDES) {
        const ratios =
          side === 'service' && SIDES.includes('floor')
            ? `${fmt(of('service', 'rps') / of('floor', 'rps'), 3)} | ${fmt(of('service', 'browser') / of('floor', 'browser'), 3)}`
            : ' | ';
        console.log(
          `| ${concurrency} | ${side} | ${fmt(of(side, 'rps'), 2)} | ${fmt(of(side, 'browser'))} | ${fmt(of(side, 'worker'))} | ${fmt(of(side, 'wrangler'))} | ${fmt(of(side, 'bench'))} | ${fmt(of(side, 'processes'), 2)} | ${fmt(of(side, 'launches'))} | ${fmt(of(side, 'messages'))} | ${ratios} |`,
        );
      }
    }
    console.log('\n## Processes the browser started per request, by kind (all rounds)\n');
    for (const concurrency of CONCURRENCIES) {
      for (const side of SIDES) {
        const phases = results.get(`${side} ${concurrency}`)!;
        const answered = phases.reduce((sum, phase) => sum + phase.answered, 0);
        const kinds = new Map<string, number>();
        for (const phase of phases) for (const [kind, count] of phase.kinds) kinds.set(kind, (kinds.get(kind) ?? 0) + count);
        const list = [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, count]) => `${kind} ${fmt(count / answered, 2)}`);
        console.log(`- ${side}, concurrency ${concurrency}: ${list.join(', ') || 'none'}`);
      }
    }
    console.log(
      `\n- browsers the service launched in all: ${worker.launchedBrowserCount()}; Worker reloads: ${reloadCount(worker.logs())}`,
    );
    console.log(`- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    await floor?.close();
    await worker?.stop();
    await fixtures.close();
    sources.remove();
  }
}

await main();
