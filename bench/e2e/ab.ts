// `npm run bench:ab -- <git revision> [html|markdown] [wait_event]`: the service at another revision
// (A) against the working tree (B), in one run: both Workers up at once, rounds of 56 requests at
// concurrency 8 taking turns (which side goes first alternates by round), so a drift in this shared
// machine's speed between runs minutes apart cannot pass for a change in the code. A is checked out
// into a temporary git worktree; B runs from a copy of the sources (snapshot.ts; both in
// ab-workers.ts). Prints each round and the totals; only 200 answers count.
import { TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { withAbWorkers } from './ab-workers.js';
import { runLoad } from './load.js';

const ROUNDS = 6;
const CONCURRENCY = 8;
const REQUESTS = 56;

async function main() {
  const [revision, format = 'html', waitEvent = 'networkIdle'] = process.argv.slice(2);
  if (revision === undefined) throw new Error('usage: npm run bench:ab -- <git revision> [html|markdown] [wait_event]');
  await withAbWorkers(revision, async (a, b, fixtures) => {
    const workers = [a, b];
    const url = fixtures.url('/bench/article?fetch_ms=300');
    const send = (worker: WorkerHandle) => async () => {
      const started = performance.now();
      const response = await fetch(`${worker.origin}/api/fetch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
        body: JSON.stringify({ url, output_format: format, wait_event: waitEvent, raw: true }),
      });
      await response.text();
      return { ms: performance.now() - started, status: response.status };
    };
    for (const worker of workers) await runLoad(send(worker), 1, 3); // launches each browser
    console.log(`A: ${revision}, B: working tree; ${format}, ${waitEvent}, concurrency ${CONCURRENCY}, ${REQUESTS} requests a round\n`);
    console.log('| round | A req/s | A failed | B req/s | B failed | B / A |\n|---|---|---|---|---|---|');
    const totals = [
      { ok: 0, ms: 0 },
      { ok: 0, ms: 0 },
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      const rates: { rps: number; failed: number }[] = [];
      // A first in odd rounds, B first in even ones: a side that always ran first or second would carry
      // what that place costs (an A/A run with A always first read 0.98 to 1.07 by round).
      for (const i of round % 2 === 1 ? [0, 1] : [1, 0]) {
        const result = await runLoad(send(workers[i]!), CONCURRENCY, REQUESTS);
        const ok = result.samples.filter((s) => s.status === 200).length;
        totals[i]!.ok += ok;
        totals[i]!.ms += result.wallMs;
        rates[i] = { rps: (ok / result.wallMs) * 1000, failed: REQUESTS - ok };
      }
      const [ra, rb] = rates as [(typeof rates)[0], (typeof rates)[0]];
      console.log(
        `| ${round} | ${ra.rps.toFixed(2)} | ${ra.failed} | ${rb.rps.toFixed(2)} | ${rb.failed} | ${(rb.rps / ra.rps).toFixed(3)} |`,
      );
    }
    const [ta, tb] = totals.map((t) => (t.ok / t.ms) * 1000) as [number, number];
    console.log(`| all | ${ta.toFixed(2)} | | ${tb.toFixed(2)} | | ${(tb / ta).toFixed(3)} |`);
  });
}

await main();
