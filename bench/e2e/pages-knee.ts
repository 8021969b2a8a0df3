// `npm run bench:pages`: where one browser stops gaining from more pages at once, the default of
// MAX_PAGES_PER_BROWSER. One location of one browser with a cap above every step, then closed-loop
// load at concurrency p (so p pages load at once in that browser) for p = 1 … 24: req/s and latency
// p50/p95 per step, on the benchmark article (a 300 ms fetch, networkIdle). The knee is the smallest
// p whose req/s reaches 95 % of the best step. Only 200 answers count. Writes docs/pages-per-browser.md.
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN } from '../../test/e2e/support/worker.js';
import { percentile, runLoad } from './load.js';
import { snapshotSources } from './snapshot.js';

const OUT = new URL('../../docs/pages-per-browser.md', import.meta.url);
const STEPS = [1, 2, 4, 6, 8, 12, 16, 24];
const REQUESTS_PER_PAGE = 6;
const KNEE_SHARE = 0.95;

async function main() {
  const fixtures = await startFixtureServer();
  const sources = snapshotSources();
  const worker = await startWorker({
    config: sources.config,
    vars: { MAX_BROWSERS_PER_LOCATION: '1', MAX_PAGES_PER_BROWSER: '64', QUEUE_TIMEOUT_MS: '600000', BROWSER_IDLE_CLOSE_MS: '3600000' },
  });
  const lines: string[] = [];
  const log = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  try {
    const url = fixtures.url('/bench/article?fetch_ms=300');
    const send = async () => {
      const started = performance.now();
      const response = await fetch(`${worker.origin}/api/fetch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
        body: JSON.stringify({ url, wait_event: 'networkIdle', raw: true }),
      });
      await response.arrayBuffer();
      return { ms: performance.now() - started, status: response.status };
    };
    await runLoad(send, 1, 3); // launches the browser
    const cores = cpus();
    log('# Pages per browser (npm run bench:pages)');
    log();
    log("How one browser's throughput and latency grow with the pages it loads at once: the knee sets MAX_PAGES_PER_BROWSER.");
    log(`Measured on this machine (${cores.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB), wrangler dev + Chromium:`);
    log(
      `one browser (MAX_BROWSERS_PER_LOCATION=1), closed-loop load at concurrency p = pages loading at once, ${REQUESTS_PER_PAGE}·p requests a step;`,
    );
    log('the benchmark article (a 300 ms fetch after DOMContentLoaded), wait_event networkIdle, html. Only 200 answers count.');
    log();
    log('| pages at once | requests | failed | req/s | latency p50 | latency p95 |');
    log('|---|---|---|---|---|---|');
    const rates: { pages: number; rps: number }[] = [];
    for (const pages of STEPS) {
      const total = REQUESTS_PER_PAGE * pages;
      const result = await runLoad(send, pages, total);
      const ok = result.samples.filter((sample) => sample.status === 200);
      const rps = (ok.length / result.wallMs) * 1000;
      rates.push({ pages, rps });
      const ms = ok.map((sample) => sample.ms);
      log(
        `| ${pages} | ${total} | ${total - ok.length} | ${rps.toFixed(2)} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 95).toFixed(0)} |`,
      );
    }
    const best = Math.max(...rates.map((rate) => rate.rps));
    const knee = rates.find((rate) => rate.rps >= KNEE_SHARE * best)!;
    log();
    log(
      `Knee: ${knee.pages} pages at once (${knee.rps.toFixed(2)} req/s, the first step within ${KNEE_SHARE * 100} % of the best, ${best.toFixed(2)} req/s).`,
    );
  } finally {
    await worker.stop();
    await fixtures.close();
    sources.remove();
  }
  writeFileSync(OUT, lines.join('\n') + '\n');
}

await main();
