// `npm run bench:markdown-ab -- <git revision> [small,large,corpus] [rounds]`: what markdown output costs, the
// service at another revision (A) against the working tree (B), both Workers up at once and taking
// turns request by request, so a drift in this shared machine's speed cannot pass for a change in the
// code. Sections (all by default):
// - small: a warm small page (DOMContentLoaded, markdown) at concurrency 1, the per-request cost;
// - large: the 3 MB and 8 MB pages of docs/performance.md (text only: markdown as long as the HTML);
// - corpus: the four largest real saved pages of ../shared/corpus, served here with a same-origin-only
//   CSP (offline, their third-party scripts would stall on DNS).
// For large and corpus pages, html and markdown each round: the cost of markdown is the median of
// markdown − html paired within a round, in latency and in the read phases alone (Server-Timing
// serialize + convert: loading an 8 MB page varies by more than the whole cost of markdown here, the
// read phases do not wait on it). Only 200 answers count; the others are named.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { withAbWorkers } from './ab-workers.js';
import { percentile } from './load.js';
import { type SavedPages, serverTimingPhase, serveSavedPages } from './saved-pages.js';

const SMALL_REQUESTS = 40;
const LARGE_ROUNDS = 15;
const CORPUS_ROUNDS = 7;
const SIZES = [3_000_000, 8_000_000];
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pages/', import.meta.url));
const SIDES = ['A', 'B'] as const;
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
  const timing = response.headers.get('Server-Timing');
  return { ms, status: response.status, serialize: serverTimingPhase(timing, 'serialize'), convert: serverTimingPhase(timing, 'convert') };
}

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : '–');
const median = (values: number[]) => percentile(values, 50);
const readMs = (r: Timed) => r.serialize + (Number.isFinite(r.convert) ? r.convert : 0);

interface Cost {
  htmlP50: number;
  markdownP50: number;
  /** Median of markdown − html latency, paired within a round. */
  latency: number;
  /** The same in the read phases (serialize + convert). */
  read: number;
  serializeHtml: number;
  serializeMarkdown: number;
  convertMarkdown: number;
}

/** html and markdown of `url` on both sides, `rounds` times, sides and formats taking turns. */
async function compare(workers: WorkerHandle[], url: string, rounds: number, failed: (label: string) => void): Promise<Cost[]> {
  const runs = [0, 1].map(() => ({ html: [] as Timed[], markdown: [] as Timed[], latency: [] as number[], read: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const formats: Format[] = round % 4 < 2 ? ['html', 'markdown'] : ['markdown', 'html'];
      const got: Partial<Record<Format, Timed>> = {};
      for (const format of formats) {
        const result = await timedFetch(workers[side]!, { url, wait_event: 'load', output_format: format });
        if (result.status !== 200) failed(`${url} ${format} ${SIDES[side]}: ${result.status}`);
        else got[format] = result;
      }
      const run = runs[side]!;
      if (got.html && got.markdown) {
        run.html.push(got.html);
        run.markdown.push(got.markdown);
        run.latency.push(got.markdown.ms - got.html.ms);
        run.read.push(readMs(got.markdown) - readMs(got.html));
      }
    }
  }
  return runs.map((run) => ({
    htmlP50: median(run.html.map((r) => r.ms)),
    markdownP50: median(run.markdown.map((r) => r.ms)),
    latency: median(run.latency),
    read: median(run.read),
    serializeHtml: median(run.html.map((r) => r.serialize)),
    serializeMarkdown: median(run.markdown.map((r) => r.serialize)),
    convertMarkdown: median(run.markdown.map((r) => r.convert)),
  }));
}

function printCosts(rows: { page: string; costs: Cost[] }[]): void {
  console.log(
    '| page | side | html p50 | markdown p50 | cost of markdown in latency | in serialize + convert | serialize html / md p50 | convert md p50 |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { page, costs } of rows) {
    for (const [side, c] of costs.entries()) {
      console.log(
        `| ${page} | ${SIDES[side]} | ${fmt(c.htmlP50)} | ${fmt(c.markdownP50)} | ${fmt(c.latency)} | ${fmt(c.read)} | ${fmt(c.serializeHtml)} / ${fmt(c.serializeMarkdown)} | ${fmt(c.convertMarkdown)} |`,
      );
    }
  }
  console.log('\nSummary (B/A of the cost in serialize + convert):');
  for (const { page, costs } of rows) {
    const [a, b] = costs as [Cost, Cost];
    console.log(
      `- ${page}: A ${fmt(a.read)} ms, B ${fmt(b.read)} ms (B/A ${(b.read / a.read).toFixed(2)}); B markdown p50 ${fmt(b.markdownP50)} vs html p50 ${fmt(b.htmlP50)} ms`,
    );
  }
}

/** The `count` largest corpus pages, served; by name. */
function serveCorpus(count: number): Promise<SavedPages> {
  const names = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.html'))
    .sort((x, y) => statSync(join(CORPUS, y)).size - statSync(join(CORPUS, x)).size)
    .slice(0, count);
  return serveSavedPages(names, (name) => readFileSync(join(CORPUS, name)));
}

async function main() {
  const [revision, sectionList = 'small,large,corpus', roundsArg] = process.argv.slice(2);
  if (revision === undefined) throw new Error('usage: npm run bench:markdown-ab -- <git revision> [small,large,corpus] [rounds]');
  const largeRounds = roundsArg === undefined ? LARGE_ROUNDS : Number(roundsArg);
  const sections = new Set(sectionList.split(','));
  const failures: string[] = [];
  await withAbWorkers(revision, async (a, b, fixtures) => {
    const workers = [a, b];
    const small = { url: fixtures.url('/bench/article?fetch_ms=0'), wait_event: 'DOMContentLoaded', output_format: 'markdown' };
    for (const worker of workers) for (let i = 0; i < 3; i++) await timedFetch(worker, small); // launches each browser
    console.log(`A: ${revision}, B: working tree`);

    if (sections.has('small')) {
      console.log(`\n## Warm small page, markdown, DOMContentLoaded, concurrency 1 (${SMALL_REQUESTS} requests each, alternating)\n`);
      const smallMs: number[][] = [[], []];
      for (let i = 0; i < SMALL_REQUESTS; i++) {
        for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const result = await timedFetch(workers[side]!, small);
          if (result.status !== 200) failures.push(`small page ${SIDES[side]}: ${result.status}`);
          else smallMs[side]!.push(result.ms);
        }
      }
      console.log('| side | p50 | p90 | answered |\n|---|---|---|---|');
      for (const side of [0, 1]) {
        const values = smallMs[side]!;
        console.log(`| ${SIDES[side]} | ${fmt(median(values))} | ${fmt(percentile(values, 90))} | ${values.length} |`);
      }
    }

    if (sections.has('large')) {
      console.log(`\n## Large text-only pages, wait_event load (${largeRounds} rounds; each round html and markdown on both sides)\n`);
      const rows = [];
      for (const bytes of SIZES) {
        const costs = await compare(workers, fixtures.url(`/big?bytes=${bytes}`), largeRounds, (f) => failures.push(f));
        rows.push({ page: `${bytes / 1e6} MB`, costs });
      }
      printCosts(rows);
    }

    if (sections.has('corpus')) {
      console.log(`\n## Real saved pages, wait_event load (${CORPUS_ROUNDS} rounds)\n`);
      const corpus = await serveCorpus(4);
      try {
        const rows = [];
        for (const [name, url] of corpus.urls) {
          const size = (statSync(join(CORPUS, name)).size / 1e6).toFixed(2);
          rows.push({ page: `${name} (${size} MB)`, costs: await compare(workers, url, CORPUS_ROUNDS, (f) => failures.push(f)) });
        }
        printCosts(rows);
      } finally {
        await corpus.close();
      }
    }
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  });
}

await main();
