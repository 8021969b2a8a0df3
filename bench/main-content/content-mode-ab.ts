// `npm run bench:main-content-ab -- <git revision> [rounds]`: what only_main_content costs on the real
// saved pages of ../shared/corpus, the service at another revision (A) against the working tree (B),
// both up at once, taking turns request by request. Pages are grouped by what B answers: an article
// (X-Content-Mode: main), or the whole page (full). Per group: paired medians of
// B − A in latency and in the serialize phase, and the content mode each side answered. Only 200
// answers count.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerHandle } from '../../test/e2e/support/worker.js';
import { withAbWorkers } from '../e2e/ab-workers.js';
import { percentile } from '../e2e/load.js';
import { serverTimingPhase, serveSavedPages } from '../e2e/saved-pages.js';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pages/', import.meta.url));
const DEFAULT_ROUNDS = 5;

interface Answer {
  ms: number;
  serialize: number;
  mode: string;
  ok: boolean;
}

async function ask(worker: WorkerHandle, url: string): Promise<Answer> {
  const started = performance.now();
  const response = await worker.fetchPage({
    url,
    output_format: 'markdown',
    only_main_content: true,
    wait_event: 'load',
    wait_ms: 4000,
    raw: true,
  });
  await response.text();
  return {
    ms: performance.now() - started,
    serialize: serverTimingPhase(response.headers.get('Server-Timing'), 'serialize'),
    mode: response.headers.get('X-Content-Mode') ?? '',
    ok: response.status === 200,
  };
}

interface PageRun {
  name: string;
  modeA: string;
  modeB: string;
  latency: number[];
  serialize: number[];
}

const median = (values: number[]) => (values.length === 0 ? Number.NaN : percentile(values, 50));
const ms = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(0)} ms`;

async function main() {
  const [revision, roundsArg] = process.argv.slice(2);
  if (!revision) throw new Error('usage: npm run bench:main-content-ab -- <git revision> [rounds]');
  const rounds = Number(roundsArg ?? DEFAULT_ROUNDS);
  const names = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.html'))
    .sort();
  const pages = await serveSavedPages(names, (name) => readFileSync(join(CORPUS, name)));
  const runs: PageRun[] = [];
  try {
    await withAbWorkers(revision, async (a, b) => {
      for (const [name, url] of pages.urls) {
        await ask(a, url); // warm
        await ask(b, url);
        const run: PageRun = { name, modeA: '', modeB: '', latency: [], serialize: [] };
        for (let round = 0; round < rounds; round++) {
          const first = round % 2 === 0 ? a : b;
          const one = await ask(first, url);
          const other = await ask(first === a ? b : a, url);
          const [fromA, fromB] = first === a ? [one, other] : [other, one];
          if (!fromA.ok || !fromB.ok) continue;
          run.modeA = fromA.mode;
          run.modeB = fromB.mode;
          run.latency.push(fromB.ms - fromA.ms);
          run.serialize.push(fromB.serialize - fromA.serialize);
        }
        runs.push(run);
        console.error(`${name}: A ${run.modeA} B ${run.modeB}, serialize B − A ${ms(median(run.serialize))}`);
      }
    });
  } finally {
    await pages.close();
  }
  console.log(`\nA: ${revision}, B: working tree; ${rounds} rounds a page; only_main_content, markdown, wait_event load\n`);
  console.log('| pages B answers | pages | modes changed | B − A latency, median of pairs | B − A serialize, median of pairs |');
  console.log('|---|---|---|---|---|');
  for (const mode of ['main', 'full']) {
    const group = runs.filter((r) => r.modeB === mode);
    const changed = group.filter((r) => r.modeA !== r.modeB).map((r) => r.name);
    console.log(
      `| ${mode} | ${group.length} | ${changed.length === 0 ? 'none' : changed.join(', ')} | ${ms(median(group.flatMap((r) => r.latency)))} | ${ms(median(group.flatMap((r) => r.serialize)))} |`,
    );
  }
  console.log('\nPer page (serialize, B − A median):');
  for (const run of runs) console.log(`- ${run.name}: ${run.modeA} → ${run.modeB}, ${ms(median(run.serialize))}`);
}

await main();
