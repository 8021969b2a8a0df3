// `npm run bench:markdown-ab -- <git revision>`: what markdown output costs, the service at another
// revision (A) against the working tree (B), both Workers up at once and taking turns request by
// request, so a drift in this shared machine's speed cannot pass for a change in the code.
// - a warm small page (DOMContentLoaded, markdown) at concurrency 1: the per-request cost;
// - the 3 MB and 8 MB pages of docs/performance.md (wait_event load), html and markdown each round:
//   the cost of markdown is the median of markdown − html paired within a round, in latency and in
//   the read phases alone (Server-Timing serialize + convert: loading an 8 MB page varies by more
//   than the whole cost of markdown on this machine, the read phases do not wait on it).
// Only 200 answers count; the others are named.
import { TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { withAbWorkers } from './ab-workers.js';
import { percentile } from './load.js';

const SMALL_REQUESTS = 40;
const LARGE_ROUNDS = 15;
const SIZES = [3_000_000, 8_000_000];
type Format = 'html' | 'markdown';

interface Timed {
  ms: number;
  status: number;
  serialize: number;
  convert: number;
}

async function timedFetch(worker: WorkerHandle, body: object): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ ...body, raw: true }),
  });
  await response.text();
  const ms = performance.now() - started;
  const timing = response.headers.get('Server-Timing') ?? '';
  const phase = (name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);
  return { ms, status: response.status, serialize: phase('serialize'), convert: phase('convert') };
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : '–');
const median = (values: number[]) => percentile(values, 50);

async function main() {
  const [revision] = process.argv.slice(2);
  if (revision === undefined) throw new Error('usage: npm run bench:markdown-ab -- <git revision>');
  const failures: string[] = [];
  const ok = (label: string, result: Timed) => {
    if (result.status !== 200) failures.push(`${label}: ${result.status}`);
    return result.status === 200;
  };
  await withAbWorkers(revision, async (a, b, fixtures) => {
    const workers = [a, b];
    const sides = ['A', 'B'] as const;
    const small = { url: fixtures.url('/bench/article?fetch_ms=0'), wait_event: 'DOMContentLoaded', output_format: 'markdown' };
    for (const worker of workers) for (let i = 0; i < 3; i++) await timedFetch(worker, small); // launches each browser

    console.log(`A: ${revision}, B: working tree\n`);
    console.log(`## Warm small page, markdown, DOMContentLoaded, concurrency 1 (${SMALL_REQUESTS} requests each, alternating)\n`);
    const smallMs: number[][] = [[], []];
    for (let i = 0; i < SMALL_REQUESTS; i++) {
      for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const result = await timedFetch(workers[side]!, small);
        if (ok(`small page ${sides[side]}`, result)) smallMs[side]!.push(result.ms);
      }
    }
    console.log('| side | p50 | p90 | answered |\n|---|---|---|---|');
    for (const side of [0, 1]) {
      const values = smallMs[side]!;
      console.log(`| ${sides[side]} | ${fmt(median(values))} | ${fmt(percentile(values, 90))} | ${values.length} |`);
    }

    console.log(`\n## Large pages, wait_event load (${LARGE_ROUNDS} rounds; each round html and markdown on both sides)\n`);
    console.log(
      '| page | side | html p50 | markdown p50 | cost of markdown in latency | in serialize + convert | serialize html / md p50 | convert md p50 |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    const costs: Record<string, number[]> = {};
    for (const bytes of SIZES) {
      const url = fixtures.url(`/big?bytes=${bytes}`);
      const runs: Record<Format, Timed[]>[] = [
        { html: [], markdown: [] },
        { html: [], markdown: [] },
      ];
      const paired: number[][] = [[], []];
      const pairedRead: number[][] = [[], []];
      const read = (r: Timed) => r.serialize + (Number.isFinite(r.convert) ? r.convert : 0);
      for (let round = 0; round < LARGE_ROUNDS; round++) {
        for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const formats: Format[] = round % 4 < 2 ? ['html', 'markdown'] : ['markdown', 'html'];
          const got: Partial<Record<Format, Timed>> = {};
          for (const format of formats) {
            const result = await timedFetch(workers[side]!, { url, wait_event: 'load', output_format: format });
            if (ok(`${bytes / 1e6} MB ${format} ${sides[side]}`, result)) {
              runs[side]![format].push(result);
              got[format] = result;
            }
          }
          if (got.html && got.markdown) {
            paired[side]!.push(got.markdown.ms - got.html.ms);
            pairedRead[side]!.push(read(got.markdown) - read(got.html));
          }
        }
      }
      for (const side of [0, 1]) {
        const { html, markdown } = runs[side]!;
        const cost = median(paired[side]!);
        const readCost = median(pairedRead[side]!);
        costs[`${bytes}:${side}`] = [cost, readCost, median(html.map((r) => r.ms)), median(markdown.map((r) => r.ms))];
        console.log(
          `| ${bytes / 1e6} MB | ${sides[side]} | ${fmt(median(html.map((r) => r.ms)))} | ${fmt(median(markdown.map((r) => r.ms)))} | ${fmt(cost)} | ${fmt(readCost)} | ${fmt(median(html.map((r) => r.serialize)))} / ${fmt(median(markdown.map((r) => r.serialize)))} | ${fmt(median(markdown.map((r) => r.convert)))} |`,
        );
      }
    }

    console.log('\n## Summary\n');
    console.log(`- warm small page, markdown: p50 A ${fmt(median(smallMs[0]!))} ms, B ${fmt(median(smallMs[1]!))} ms`);
    for (const bytes of SIZES) {
      const [costA, readCostA] = costs[`${bytes}:0`]!;
      const [costB, readCostB, htmlB, markdownB] = costs[`${bytes}:1`]!;
      console.log(
        `- ${bytes / 1e6} MB: cost of markdown in latency A ${fmt(costA!)} ms, B ${fmt(costB!)} ms; in serialize + convert A ${fmt(readCostA!)} ms, B ${fmt(readCostB!)} ms (B/A ${(readCostB! / readCostA!).toFixed(2)}); B markdown p50 ${fmt(markdownB!)} vs html p50 ${fmt(htmlB!)} ms`,
      );
    }
    console.log(`- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  });
}

await main();
