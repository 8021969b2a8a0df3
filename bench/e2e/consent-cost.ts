// `npm run bench:consent`: what declining consent dialogs costs, on the working tree, at concurrency 1,
// the browser warm. Each page is fetched as markdown with the default wait (networkIdle), with
// consent "reject" (the default: the rule set runs in every frame) and "keep" (it never runs),
// taking turns, so a drift in the machine's speed falls on both alike. Reports the median latency and
// wait phase (Server-Timing) of each and their difference.
// Pages: the benchmark article (no dialog: the rule set's cost per page), the same with 10
// same-origin iframes (its cost per frame, over the article's), and a page with a OneTrust dialog (the
// time its answer takes). Only 200 answers count; the others are named.
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile } from './load.js';
import { serverTimingPhase } from './saved-pages.js';

const REQUESTS = 20;
const WARM_UP = 3;

const PAGES: [string, string][] = [
  ['benchmark article, no dialog', '/bench/article?fetch_ms=0'],
  ['the same with 10 iframes', '/bench/frames?n=10'],
  ['a OneTrust dialog', '/consent/onetrust?id=bench'],
];

interface Sample {
  ms: number;
  wait: number;
}

async function sample(worker: WorkerHandle, url: string, consent: string, failures: string[]): Promise<Sample | undefined> {
  const started = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ url, output_format: 'markdown', raw: true, consent }),
  });
  await response.text();
  if (response.status !== 200) {
    failures.push(`${url} consent=${consent}: ${response.status}`);
    return undefined;
  }
  return { ms: performance.now() - started, wait: serverTimingPhase(response.headers.get('Server-Timing'), 'wait') };
}

const fmt = (ms: number) => ms.toFixed(0);
const median = (values: number[]) => percentile(values, 50);

async function main() {
  const fixtures = await startFixtureServer();
  const worker = await startWorker();
  const failures: string[] = [];
  try {
    for (let i = 0; i < WARM_UP; i++) await sample(worker, fixtures.url('/echo?id=warm'), 'reject', failures);
    console.log(`# consent "reject" against "keep", markdown, networkIdle, concurrency 1, ${REQUESTS} requests each way\n`);
    console.log('| page | latency p50 keep | latency p50 reject | difference | wait p50 keep | wait p50 reject | difference |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, path] of PAGES) {
      const runs: Record<string, Sample[]> = { keep: [], reject: [] };
      for (let i = 0; i < REQUESTS; i++) {
        for (const consent of i % 2 === 0 ? ['keep', 'reject'] : ['reject', 'keep']) {
          const result = await sample(worker, fixtures.url(path), consent, failures);
          if (result !== undefined) runs[consent]!.push(result);
        }
      }
      const ms = (samples: Sample[]) => median(samples.map((s) => s.ms));
      const wait = (samples: Sample[]) => median(samples.map((s) => s.wait).filter(Number.isFinite));
      const [keep, reject] = [runs.keep!, runs.reject!];
      console.log(
        `| ${name} | ${fmt(ms(keep))} | ${fmt(ms(reject))} | ${fmt(ms(reject) - ms(keep))} | ${fmt(wait(keep))} | ${fmt(wait(reject))} | ${fmt(wait(reject) - wait(keep))} |`,
      );
    }
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    await worker.stop();
    await fixtures.close();
  }
}

await main();
