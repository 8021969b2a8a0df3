// `npm run bench:main-content`: scores only_main_content on the public pages of both main-content
// benchmarks, ../shared/bench/main-content (scrapinghub's article pages, shingle F1) and
// ../shared/bench/main-content-snippets (trafilatura's evaluation set, snippets that must and must
// not be in the text), each with its own harness, metric and reference figures, read from there and
// run from a temporary copy that resolves markdown-it from this project, against a Worker started
// from a copy of the sources. Each public set is also scored in two halves by id (the first hex
// digit of the page's id, or of the sha256 key of its URL: 0–7 and 8–f), the discipline for rule
// changes: tune on one half, keep a change only if the other half and the other benchmark do not
// lose. Writes docs/main-content-benchmark.md; for reference also the whole page (full mode), main
// mode with the title heading left out before scoring (what that heading costs on this metric),
// every scrapinghub page below F1 0.8, and what extraction costs a warm request: the same article
// pages with and without only_main_content, taking turns, paired medians.
// Before them, the "must keep" set (must-keep.ts): recall of the text written pages must keep.
// `-- --quick`: the must-keep set, the two main runs and their halves only, printed, no document
// written; `-- --must-keep`: the must-keep set alone; `-- --large`: also the large benchmark (WCXB,
// 914 pages, about half an hour), in halves by site; `-- --save DIR` keeps the harnesses' per-page
// results and every page's answer (markdown and scored text, DIR/scrapinghub, DIR/snippets,
// DIR/large) there, to compare two runs page by page or to simulate a rule on saved answers.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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
import { mustKeepRecall, mustKeepTable } from './must-keep.js';
import { halfOfId, halfOfUrl, largeScores, type Scores, scrapinghubScores, snippetScores } from './halves.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HARNESS = join(ROOT, '../shared/bench/main-content');
const SNIPPETS = join(ROOT, '../shared/bench/main-content-snippets');
const LARGE = join(ROOT, '../shared/bench/main-content-large');
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
  pages: (HarnessPage & { tp: number; fp: number; fn: number })[];
}

interface SnippetsOutput {
  run: Scores & { ok: number; failed: number; tp: number; fp: number; fn: number; tn: number };
  table: (Scores & { name: string; ours: boolean })[];
  pages: {
    url: string;
    file: string;
    ok: boolean;
    error?: string;
    tp: number;
    fp: number;
    fn: number;
    tn: number;
    missed: string[];
    leaked: string[];
  }[];
}

const f = (value: number) => value.toFixed(4);
const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(0)} ms`;

/** The harnesses copied side by side (the snippets harness imports its sibling's run.mjs), markdown-it resolved from here. */
function copyHarnesses(): { root: string; scrapinghub: string; snippets: string } {
  const root = mkdtempSync(join(tmpdir(), 'page-fetch-main-content-'));
  const scrapinghub = join(root, 'main-content');
  const snippets = join(root, 'main-content-snippets');
  mkdirSync(scrapinghub);
  mkdirSync(snippets);
  for (const file of ['run.mjs', 'metric.mjs']) copyFileSync(join(HARNESS, file), join(scrapinghub, file));
  for (const file of ['run.mjs', 'metric.mjs', 'pages.mjs']) copyFileSync(join(SNIPPETS, file), join(snippets, file));
  symlinkSync(join(ROOT, 'node_modules'), join(scrapinghub, 'node_modules'), 'dir');
  return { root, scrapinghub, snippets };
}

async function runChild(args: string[]): Promise<void> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the harness exited with ${code}`);
}

/** One run of the snippets harness on its public entries, main mode. */
async function runSnippets(dir: string, origin: string): Promise<SnippetsOutput> {
  const out = join(dir, 'snippets.json');
  const data = ['--pages', join(SNIPPETS, 'data'), '--anchors', join(SNIPPETS, 'data/anchors.json')];
  await runChild([join(dir, 'run.mjs'), '--base-url', origin, '--token', TEST_TOKEN, '--out', out, '--save', join(dir, 'texts'), ...data]);
  return JSON.parse(readFileSync(out, 'utf8')) as SnippetsOutput;
}

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
  const texts = ['--save', join(dir, `${name}-texts`)];
  await runChild([join(dir, 'run.mjs'), '--base-url', origin, '--token', TEST_TOKEN, '--mode', mode, '--out', out, ...texts, ...data]);
  return JSON.parse(readFileSync(out, 'utf8')) as HarnessOutput;
}

interface LargePage {
  id: string;
  f1: number;
  precision: number;
  recall: number;
}

/**
 * One run of the large benchmark (WCXB, 914 pages): the scrapinghub harness fetches and saves each
 * page's text, the corpus's own scorer (score.mjs) scores it; about ten minutes, so only with
 * `--large`. Its halves are split by site (sha256 of the registrable domain), so that no site
 * stands in both.
 */
async function runLarge(dir: string, origin: string): Promise<{ rows: HalfRow[]; report: string }> {
  const texts = join(dir, 'large');
  const data = [
    '--pages',
    join(LARGE, 'pages'),
    '--ground-truth',
    join(LARGE, 'ground-truth.json'),
    '--published',
    join(LARGE, 'none.json'),
  ];
  await runChild([join(dir, 'run.mjs'), '--base-url', origin, '--token', TEST_TOKEN, '--save', texts, '--worst', '0', ...data]);
  const json = join(dir, 'large.json');
  const report = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [join(LARGE, 'score.mjs'), texts, '--json', json, '--worst', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`score.mjs exited with ${code}`))));
  });
  const truth = JSON.parse(readFileSync(join(LARGE, 'ground-truth.json'), 'utf8')) as Record<string, { site: string }>;
  const pages = (JSON.parse(readFileSync(json, 'utf8')) as { perPage: LargePage[] }).perPage;
  const rows: HalfRow[] = [];
  for (const half of ['A', 'B', 'all'] as const) {
    const some = half === 'all' ? pages : pages.filter((p) => halfOfUrl(truth[p.id]?.site ?? p.id) === half);
    rows.push({ set: 'large (WCXB)', half, pages: some.length, scores: largeScores(some) });
  }
  return { rows, report };
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
 * A reference run only: the service's answers with their first line, the `# title` heading
 * docs/api.md "Main content" asks for, left out before the harness scores them (the benchmark's
 * article text has no title), so the table shows what that heading costs on this metric. A proxy in
 * front of the Worker does it.
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

interface HalfRow {
  set: string;
  half: string;
  pages: number;
  scores: Scores;
}

function halfRows(scrapinghub: HarnessOutput, snippets: SnippetsOutput): HalfRow[] {
  const rows: HalfRow[] = [];
  for (const half of ['A', 'B'] as const) {
    const pages = scrapinghub.pages.filter((p) => halfOfId(p.id) === half);
    rows.push({ set: 'scrapinghub', half, pages: pages.length, scores: scrapinghubScores(pages) });
  }
  rows.push({ set: 'scrapinghub', half: 'all', pages: scrapinghub.pages.length, scores: scrapinghubScores(scrapinghub.pages) });
  for (const half of ['A', 'B'] as const) {
    const pages = snippets.pages.filter((p) => halfOfUrl(p.url) === half);
    rows.push({ set: 'snippets', half, pages: pages.length, scores: snippetScores(pages) });
  }
  rows.push({ set: 'snippets', half: 'all', pages: snippets.pages.length, scores: snippetScores(snippets.pages) });
  return rows;
}

function halfTable(rows: HalfRow[]): string[] {
  const accuracy = (s: Scores) => (Number.isNaN(s.accuracy) ? '-' : f(s.accuracy));
  return [
    '| benchmark | half | pages | F1 | precision | recall | accuracy |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.set} | ${r.half} | ${r.pages} | ${f(r.scores.f1)} | ${f(r.scores.precision)} | ${f(r.scores.recall)} | ${accuracy(r.scores)} |`,
    ),
  ];
}

function snippetsTable(result: SnippetsOutput): string[] {
  return [
    '| extractor | F1 | precision | recall | accuracy |',
    '|---|---|---|---|---|',
    ...result.table.map(
      (row) =>
        `| ${row.ours ? '**this run (only_main_content)**' : row.name} | ${f(row.f1)} | ${f(row.precision)} | ${f(row.recall)} | ${f(row.accuracy)} |`,
    ),
  ];
}

async function main() {
  const quick = process.argv.includes('--quick');
  const harness = copyHarnesses();
  const sources = snapshotSources();
  const worker = await startWorker({ config: sources.config });
  try {
    const mustKeep = await mustKeepRecall(worker);
    console.log(`\n${mustKeepTable(mustKeep).join('\n')}`);
    if (process.argv.includes('--must-keep')) return;
    const main = await runHarness(harness.scrapinghub, worker.origin, 'main');
    const snippets = await runSnippets(harness.snippets, worker.origin);
    const halves = halfRows(main, snippets);
    if (process.argv.includes('--large')) {
      const large = await runLarge(harness.scrapinghub, worker.origin);
      console.log(large.report);
      halves.push(...large.rows);
    }
    console.log(`\n${halfTable(halves).join('\n')}`);
    const save = process.argv.indexOf('--save');
    if (save > 0 && process.argv[save + 1]) {
      mkdirSync(process.argv[save + 1]!, { recursive: true });
      writeFileSync(join(process.argv[save + 1]!, 'scrapinghub.json'), JSON.stringify(main));
      writeFileSync(join(process.argv[save + 1]!, 'snippets.json'), JSON.stringify(snippets));
      cpSync(join(harness.scrapinghub, 'main-texts'), join(process.argv[save + 1]!, 'scrapinghub'), { recursive: true });
      cpSync(join(harness.snippets, 'texts'), join(process.argv[save + 1]!, 'snippets'), { recursive: true });
      if (existsSync(join(harness.scrapinghub, 'large.json'))) {
        copyFileSync(join(harness.scrapinghub, 'large.json'), join(process.argv[save + 1]!, 'large.json'));
        cpSync(join(harness.scrapinghub, 'large'), join(process.argv[save + 1]!, 'large'), { recursive: true });
      }
    }
    if (quick) return;
    const full = await runHarness(harness.scrapinghub, worker.origin, 'full');
    const untitled = await withoutTitleHeading(worker.origin, (origin) => runHarness(harness.scrapinghub, origin, 'main', 'untitled'));
    const cost = await extractionCost(worker);
    const low = main.pages.filter((page) => page.f1 < LOW_F1).sort((a, b) => a.f1 - b.f1);
    const failedSnippets = snippets.pages.filter((p) => !p.ok);
    const lines = [
      '# Main-content benchmark',
      '',
      'How `only_main_content` scores on two public benchmarks, next to the published extractors, and what extraction costs a request.',
      `Written by \`npm run bench:main-content\` on ${cpus().length} × ${cpus()[0]?.model.trim()}.`,
      'Two public benchmarks, each with its own harness, metric and reference figures, read from `../shared/bench`; both hold more pages',
      'that are kept apart and scored by the same harnesses. Requests: markdown, `wait_event: load`, `wait_ms: 4000`.',
      '',
      '## Both benchmarks, in two halves',
      '',
      "Each public set split by id (first hex digit of the scrapinghub id, or of the sha256 of the snippets entry's URL: 0–7 is A,",
      '8–f is B). Rule changes are weighed on both halves of both benchmarks (docs/main-content.md).',
      '',
      ...halfTable(halves),
      '',
      '## Must keep (pages written for it, recall)',
      '',
      'Pages in eight languages and six layouts (test/fixtures/must-keep/), each listing the lines its main content must hold:',
      'what the rules cut that they should not, which F1 on the benchmarks does not show.',
      '',
      ...mustKeepTable(mustKeep),
      '',
      '## scrapinghub article-extraction-benchmark (60 public pages, shingle F1)',
      '',
      `- only_main_content: F1 ${f(main.run.f1)}, precision ${f(main.run.precision)}, recall ${f(main.run.recall)} (${main.run.ok} answered, ${main.run.failed} failed)`,
      `- whole page, for reference: F1 ${f(full.run.f1)}, precision ${f(full.run.precision)}, recall ${f(full.run.recall)}`,
      `- only_main_content with its \`# title\` heading left out before scoring, for reference (the service always sends it; the benchmark's article text has none): F1 ${f(untitled.run.f1)}, precision ${f(untitled.run.precision)}, recall ${f(untitled.run.recall)}`,
      `- what extraction costs a warm request (${cost.pairs} pairs: ${COST_PAGES} of these pages × ${COST_ROUNDS} rounds, with and without only_main_content in turn, markdown, \`wait_event: load\`): median ${signed(cost.latency)} latency, ${signed(cost.serialize)} in the serialize phase`,
      '',
      '### only_main_content among the published extractors (same ids)',
      '',
      ...rankTable(main),
      '',
      `### Pages below F1 ${LOW_F1}`,
      '',
      ...(low.length === 0
        ? ['None.']
        : [
            '| id | F1 | precision | recall | text chars | url |',
            '|---|---|---|---|---|---|',
            ...low.map((p) => `| ${p.id.slice(0, 12)} | ${f(p.f1)} | ${f(p.precision)} | ${f(p.recall)} | ${p.textChars} | ${p.url} |`),
          ]),
      '',
      `## trafilatura's evaluation set (${snippets.pages.length} public entries, snippets; micro-averaged counts)`,
      '',
      "The harness's reference rows are computed offline on the same entries (no browser, no script). Published for the whole set of 990",
      'entries (trafilatura was developed on it): trafilatura 2.2.0 F1 0.924 (P 0.906, R 0.943), its CI floor 0.9253; readability-lxml 0.826.',
      '',
      ...snippetsTable(snippets),
      '',
      `Counts: TP ${snippets.run.tp} FN ${snippets.run.fn} FP ${snippets.run.fp} TN ${snippets.run.tn}; ${snippets.run.ok} answered, ${snippets.run.failed} failed${failedSnippets.length > 0 ? ' (scored as missing):' : '.'}`,
      ...(failedSnippets.length > 0 ? ['', ...failedSnippets.map((p) => `- ${p.file}: ${p.error ?? 'error'}`)] : []),
      '',
    ];
    writeFileSync(OUTPUT, lines.join('\n'));
    console.log(`\nwrote ${OUTPUT}`);
  } finally {
    await worker.stop();
    sources.remove();
    rmSync(harness.root, { recursive: true, force: true });
  }
}

await main();
