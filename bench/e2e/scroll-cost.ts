// `npm run bench:scroll`: what `scroll: true` costs, on the working tree, at concurrency 1, the browser
// warm. Each page is fetched as markdown with the default wait (networkIdle), without and with scroll,
// taking turns, so a drift in the machine's speed falls on both alike. Reports the median wait phase
// (Server-Timing) of each and their difference, and how many feed items the answer held.
// Pages: one shorter than the viewport (the scroll costs one step there), the benchmark article
// (a few viewports, nothing loaded on scroll), and a feed that loads four batches of ten items on
// scroll and then ends (the e2e fixture). Only 200 answers count; the others are named.
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile } from './load.js';
import { serverTimingPhase } from './saved-pages.js';

const REQUESTS = 15;
const WARM_UP = 3;

const PAGES: [string, string][] = [
  ['short page (one viewport)', '/echo?id=short'],
  ['benchmark article (no loads on scroll)', '/bench/article?fetch_ms=0'],
  ['feed, 4 batches of 10 items loaded on scroll', '/scroll/feed?batches=4&size=10'],
];

interface Sample {
  wait: number;
  items: number;
}

async function sample(worker: WorkerHandle, url: string, scroll: boolean, failures: string[]): Promise<Sample | undefined> {
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ url, output_format: 'markdown', raw: true, scroll, wait_ms: 20_000 }),
  });
  const text = await response.text();
  if (response.status !== 200) {
    failures.push(`${url} scroll=${scroll}: ${response.status}`);
    return undefined;
  }
  return { wait: serverTimingPhase(response.headers.get('Server-Timing'), 'wait'), items: text.match(/Feed item \d+\.\d+/g)?.length ?? 0 };
}

const fmt = (ms: number) => ms.toFixed(0);

async function main() {
  const fixtures = await startFixtureServer();
  const worker = await startWorker();
  const failures: string[] = [];
  try {
    for (let i = 0; i < WARM_UP; i++) await sample(worker, fixtures.url('/echo?id=warm'), false, failures);
    console.log(`# scroll: true, markdown, networkIdle, concurrency 1, ${REQUESTS} requests each way\n`);
    console.log('| page | wait p50 without | wait p50 with scroll | difference | feed items without / with |');
    console.log('|---|---|---|---|---|');
    for (const [name, path] of PAGES) {
      const runs: Record<'off' | 'on', Sample[]> = { off: [], on: [] };
      for (let i = 0; i < REQUESTS; i++) {
        for (const scroll of i % 2 === 0 ? [false, true] : [true, false]) {
          const result = await sample(worker, fixtures.url(path), scroll, failures);
          if (result !== undefined) runs[scroll ? 'on' : 'off'].push(result);
        }
      }
      const wait = (samples: Sample[]) => percentile(samples.map((s) => s.wait).filter(Number.isFinite), 50);
      const items = (samples: Sample[]) =>
        percentile(
          samples.map((s) => s.items),
          50,
        );
      console.log(
        `| ${name} | ${fmt(wait(runs.off))} | ${fmt(wait(runs.on))} | ${fmt(wait(runs.on) - wait(runs.off))} | ${items(runs.off)} / ${items(runs.on)} |`,
      );
    }
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    await worker.stop();
    await fixtures.close();
  }
}

await main();
