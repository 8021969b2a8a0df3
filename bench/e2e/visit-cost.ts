// `npm run bench:visit`: what the request controls cost (docs/request-controls.md), on the working
// tree, at concurrency 1, the browser warm. Each page is fetched as html at `load` without any
// control, with `headers` (every request of the page then pauses in the request filter), with
// `cookies` and with `device: "mobile"`, taking turns in an order that rotates each round, so a drift
// in the machine's speed falls on all alike. Reports each variant's median latency as the client
// sees it and its acquire + navigate + wait phases (Server-Timing), and the difference to none.
// Pages: a small one (one document) and one that asks for 40 scripts of its own origin.
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile } from './load.js';
import { serverTimingPhase } from './saved-pages.js';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const WARM_UP = 3;

const PAGES: [string, string][] = [
  ['one document', '/echo?id=visit-cost'],
  ['40 scripts of its own origin', '/visit/many?n=40'],
];

const VARIANTS: [string, object][] = [
  ['none', {}],
  ['headers', { headers: { Authorization: 'Bearer bench', 'X-Bench': '1' } }],
  ['cookies', { cookies: [{ name: 'session', value: 'bench' }] }],
  ['device mobile', { device: 'mobile' }],
];

interface Sample {
  total: number;
  phases: number;
  acquire: number;
  navigate: number;
  wait: number;
}

async function sample(worker: WorkerHandle, url: string, fields: object, failures: string[]): Promise<Sample | undefined> {
  const started = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ url, wait_event: 'load', raw: true, ...fields }),
  });
  await response.text();
  const total = performance.now() - started;
  if (response.status !== 200) {
    failures.push(`${url} ${JSON.stringify(fields)}: ${response.status}`);
    return undefined;
  }
  const timing = response.headers.get('Server-Timing');
  const [acquire, navigate, wait] = (['acquire', 'navigate', 'wait'] as const).map((phase) => serverTimingPhase(timing, phase)) as [
    number,
    number,
    number,
  ];
  return { total, phases: acquire + navigate + wait, acquire, navigate, wait };
}

const fmt = (ms: number) => ms.toFixed(0);
const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)}`;

async function main() {
  const fixtures = await startFixtureServer();
  const worker = await startWorker();
  const failures: string[] = [];
  try {
    for (let i = 0; i < WARM_UP; i++)
      for (const [, fields] of VARIANTS) await sample(worker, fixtures.url('/echo?id=warm'), fields, failures);
    console.log(`# request controls, html at load, concurrency 1, ${ROUNDS} requests per variant and page\n`);
    console.log('| page | variant | total p50 (ms) | acquire / navigate / wait p50 (ms) | difference to none (total / three phases) |');
    console.log('|---|---|---|---|---|');
    for (const [name, path] of PAGES) {
      const runs = new Map<string, Sample[]>(VARIANTS.map(([variant]) => [variant, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
        for (const [variant, fields] of order) {
          const result = await sample(worker, fixtures.url(`${path}&round=${round}`), fields, failures);
          if (result !== undefined) runs.get(variant)!.push(result);
        }
      }
      const median = (variant: string, key: keyof Sample) =>
        percentile(
          runs.get(variant)!.map((s) => s[key]),
          50,
        );
      for (const [variant] of VARIANTS) {
        const total = median(variant, 'total');
        const phases = median(variant, 'phases');
        const difference =
          variant === 'none' ? '' : `${signed(total - median('none', 'total'))} / ${signed(phases - median('none', 'phases'))}`;
        const apart = (['acquire', 'navigate', 'wait'] as const).map((phase) => fmt(median(variant, phase))).join(' / ');
        console.log(`| ${name} | ${variant} | ${fmt(total)} | ${apart} | ${difference} |`);
      }
    }
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    await worker.stop();
    await fixtures.close();
  }
}

await main();
