// `npm run bench:main-content`: scores only_main_content on the public benchmark pages of
// ../shared/bench/main-content (its own harness, metric and published results, read from there and
// run from a temporary copy that resolves markdown-it from this project), against a Worker started
// from a copy of the sources, in main mode and, for reference, in full mode (the whole page) and in
// main mode with the title heading left out before scoring (what that heading costs on this metric).
// Writes docs/main-content-benchmark.md: the main run ranked among the published extractors on the
// same ids, every page of it below F1 0.8, and what extraction costs a warm request: the same
// article pages with and without only_main_content, taking turns, paired medians.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile } from '../e2e/load.js';
import { type SavedPages, serverTimingPhase, serveSavedPages } from '../e2e/saved-pages.js';
import { snapshotSources } from '../e2e/snapshot.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HARNESS = join(ROOT, '../shared/bench/main-content');
const OUTPUT = join(ROOT, 'docs/main-content-benchmark.md');
const LOW_F1 = 0.8;
/** Cost: this many benchmark pages (the first ids), each fetched this many times with and without extraction. */
const COST_PAGES = 6;
const COST_ROUNDS = 8;

interface HarnessPage {
  id: string;
  url: string;
  precision: number;
  recall: number;
  f1: number;
  textChars: number;
}

interface HarnessOutput {
  run: { f1: number; precision: number; recall: number; ok: number; failed: number };
  table: { name: string; ours: boolean; f1: number; precision: number; recall: number; accuracy: number }[];
  pages: HarnessPage[];
}

const f = (value: number) => value.toFixed(4);
const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(0)} ms`;

/** One run of the harness; `name` tells its output file apart. Asynchronous: a proxy in this process may serve it. */
async function runHarness(dir: string, origin: string, mode: 'main' | 'full', name: string = mode): Promise<HarnessOutput> {
  const out = join(dir, `${name}.json`);
  const data = [
    '--pages',
    join(HARNESS, 'pages'),
    '--ground-truth',
    join(HARNESS, 'ground-truth.json'),
    '--published',
    join(HARNESS, 'published.json'),
  ];
  const child = spawn(
    process.execPath,
    [join(dir, 'run.mjs'), '--base-url', origin, '--token', TEST_TOKEN, '--mode', mode, '--out', out, ...data],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the harness exited with ${code}`);
  return JSON.parse(readFileSync(out, 'utf8')) as HarnessOutput;
}

interface Cost {
  latency: number;
  serialize: number;
  pairs: number;
}

/** The first benchmark pages, served as the harness serves them (gunzipped). */
function servePages(count: number): Promise<SavedPages> {
  const names = readdirSync(join(HARNESS, 'pages'))
    .filter((name) => name.endsWith('.html.gz'))
    .sort()
    .slice(0, count)
    .map((name) => name.slice(0, -'.gz'.length));
  return serveSavedPages(names, (name) => gunzipSync(readFileSync(join(HARNESS, 'pages', `${name}.gz`))));
}

async function timed(worker: WorkerHandle, body: object): Promise<{ ms: number; serialize: number; ok: boolean }> {
  const started = performance.now();
  const response = await worker.fetchPage({ ...body, raw: true });
  await response.text();
  const serialize = serverTimingPhase(response.headers.get('Server-Timing'), 'serialize');
  return { ms: performance.now() - started, serialize, ok: response.status === 200 };
}

/** Median of (with − without) extraction, paired per page and round, order alternating. */
async function extractionCost(worker: WorkerHandle): Promise<Cost> {
  const pages = await servePages(COST_PAGES);
  const latency: number[] = [];
  const serialize: number[] = [];
  try {
    for (const url of pages.urls.values()) await timed(worker, { url, output_format: 'markdown', wait_event: 'load' }); // warm
    for (let round = 0; round < COST_ROUNDS; round++) {
      for (const url of pages.urls.values()) {
        const body = { url, output_format: 'markdown', wait_event: 'load', wait_ms: 4000 };
        const order = round % 2 === 0 ? [false, true] : [true, false];
        const got: Record<string, Awaited<ReturnType<typeof timed>>> = {};
        for (const main of order) got[String(main)] = await timed(worker, main ? { ...body, only_main_content: true } : body);
        const [without, withMain] = [got.false!, got.true!];
        if (!without.ok || !withMain.ok) continue;
        latency.push(withMain.ms - without.ms);
        serialize.push(withMain.serialize - without.serialize);
      }
    }
  } finally {
    await pages.close();
  }
  return { latency: percentile(latency, 50), serialize: percentile(serialize, 50), pairs: latency.length };
}

/**
 * A reference run only: the service's answers with their first line, the `# title` heading DESIGN.md
 * asks for, left out before the harness scores them (the benchmark's article text has no title), so
 * the table shows what that heading costs on this metric. A proxy in front of the Worker does it.
 */
async function withoutTitleHeading(origin: string, run: (origin: string) => Promise<HarnessOutput>): Promise<HarnessOutput> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const upstream = await fetch(`${origin}${req.url}`, {
        method: req.method,
        headers: { 'Content-Type': 'application/json', Authorization: req.headers.authorization ?? '' },
        body: Buffer.concat(chunks),
      });
      const body = (await upstream.json()) as { data?: string };
      if (upstream.headers.get('X-Content-Mode') === 'main' && body.data !== undefined) body.data = body.data.replace(/^# .*\n+/, '');
      res.writeHead(upstream.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function rankTable(result: HarnessOutput): string[] {
  return [
    '| rank | extractor | F1 | precision | recall | accuracy |',
    '|---|---|---|---|---|---|',
    ...result.table.map(
      (row, i) =>
        `| ${i + 1} | ${row.ours ? `**${row.name}**` : row.name} | ${f(row.f1)} | ${f(row.precision)} | ${f(row.recall)} | ${f(row.accuracy)} |`,
    ),
  ];
}

async function main() {
  const harness = mkdtempSync(join(tmpdir(), 'page-fetch-main-content-'));
  for (const file of ['run.mjs', 'metric.mjs']) copyFileSync(join(HARNESS, file), join(harness, file));
  symlinkSync(join(ROOT, 'node_modules'), join(harness, 'node_modules'), 'dir');
  const sources = snapshotSources();
  const worker = await startWorker({ config: sources.config });
  try {
    const main = await runHarness(harness, worker.origin, 'main');
    const full = await runHarness(harness, worker.origin, 'full');
    const untitled = await withoutTitleHeading(worker.origin, (origin) => runHarness(harness, origin, 'main', 'untitled'));
    const cost = await extractionCost(worker);
    const low = main.pages.filter((page) => page.f1 < LOW_F1).sort((a, b) => a.f1 - b.f1);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
    const lines = [
      '# Main-content benchmark',
      '',
      `\`npm run bench:main-content\` on ${new Date().toISOString().slice(0, 10)}, commit ${commit} (plus any uncommitted changes), ${cpus().length} × ${cpus()[0]?.model.trim()}.`,
      'The harness, metric, pages and published results are those of `../shared/bench/main-content` (scrapinghub/article-extraction-benchmark,',
      `its shingle F1): ${main.pages.length} public pages; more are held out. Requests: markdown, \`wait_event: load\`, \`wait_ms: 4000\`.`,
      '',
      `- only_main_content: F1 ${f(main.run.f1)}, precision ${f(main.run.precision)}, recall ${f(main.run.recall)} (${main.run.ok} answered, ${main.run.failed} failed)`,
      `- whole page, for reference: F1 ${f(full.run.f1)}, precision ${f(full.run.precision)}, recall ${f(full.run.recall)}`,
      `- only_main_content with its \`# title\` heading left out before scoring, for reference (the service always sends it; the benchmark's article text has none): F1 ${f(untitled.run.f1)}, precision ${f(untitled.run.precision)}, recall ${f(untitled.run.recall)}`,
      `- what extraction costs a warm request (${cost.pairs} pairs: ${COST_PAGES} of these pages × ${COST_ROUNDS} rounds, with and without only_main_content in turn, markdown, \`wait_event: load\`): median ${signed(cost.latency)} latency, ${signed(cost.serialize)} in the serialize phase`,
      '',
      '## only_main_content among the published extractors (same ids)',
      '',
      ...rankTable(main),
      '',
      `## Pages below F1 ${LOW_F1}`,
      '',
      ...(low.length === 0
        ? ['None.']
        : [
            '| id | F1 | precision | recall | text chars | url |',
            '|---|---|---|---|---|---|',
            ...low.map((p) => `| ${p.id.slice(0, 12)} | ${f(p.f1)} | ${f(p.precision)} | ${f(p.recall)} | ${p.textChars} | ${p.url} |`),
          ]),
      '',
    ];
    writeFileSync(OUTPUT, lines.join('\n'));
    console.log(`\nwrote ${OUTPUT}`);
  } finally {
    await worker.stop();
    sources.remove();
    rmSync(harness, { recursive: true, force: true });
  }
}

await main();
