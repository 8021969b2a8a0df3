// `npm run bench:views-regions -- <base>`: whether the working tree gives the links and images of
// saved pages the same `region` as <base> does (docs/views.md "Where main stands"), and what the
// serialize phase of such a read costs in each. Two Workers, one from a copy of <base>'s sources and
// one from a copy of the working tree's, read each page of ../shared/corpus/pages and
// ../shared/bench/main-content/pages (markdown, include_links and include_images) in turn; entries
// are paired by URL. Prints the agreement, the pairs of regions that differ, and the pages with the
// most differences.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { percentile } from './load.js';
import { serverTimingPhase, serveSavedPages } from './saved-pages.js';
import { snapshotSources } from './snapshot.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORPUS = join(ROOT, '../shared/corpus/pages');
const MAIN_CONTENT = join(ROOT, '../shared/bench/main-content/pages');

interface Entry {
  url: string;
  region: string;
}

interface Read {
  links: Entry[];
  images: Entry[];
  serialize: number;
}

/** A copy of `rev`'s sources the benchmark Worker runs, as snapshotSources copies the working tree's. */
function snapshotRevision(rev: string): { config: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'page-fetch-base-'));
  execSync(`git archive ${rev} src bench/worker scripts package.json tsconfig.json | tar -x -C ${dir}`, { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { config: join(dir, 'bench/worker/wrangler.toml'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function read(worker: WorkerHandle, url: string): Promise<Read | string> {
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ url, output_format: 'markdown', include_links: true, include_images: true, wait_event: 'load' }),
  });
  const text = await response.text();
  if (response.status !== 200) return `${response.status} ${text.slice(0, 120)}`;
  const body = JSON.parse(text) as { links?: Entry[]; images?: Entry[] };
  return {
    links: body.links ?? [],
    images: body.images ?? [],
    serialize: serverTimingPhase(response.headers.get('Server-Timing'), 'serialize'),
  };
}

/** Entries of both reads paired by URL: [agreeing, paired, listed by one read only]; each differing pair counted as "base → new". */
function agreement(base: Entry[], next: Entry[], differences: Map<string, number>): [number, number, number] {
  const regions = new Map(next.map((entry) => [entry.url, entry.region]));
  let same = 0;
  let paired = 0;
  for (const entry of base) {
    const region = regions.get(entry.url);
    if (region === undefined) continue;
    paired++;
    if (region === entry.region) same++;
    else {
      const key = `${entry.region} → ${region}`;
      differences.set(key, (differences.get(key) ?? 0) + 1);
    }
  }
  return [same, paired, base.length + next.length - 2 * paired];
}

async function main() {
  const base = process.argv[2];
  if (base === undefined) throw new Error('usage: npm run bench:views-regions -- <base revision>');
  const pages = new Map<string, () => Buffer>();
  for (const name of readdirSync(CORPUS).filter((file) => file.endsWith('.html'))) pages.set(name, () => readFileSync(join(CORPUS, name)));
  if (existsSync(MAIN_CONTENT)) {
    for (const file of readdirSync(MAIN_CONTENT).filter((name) => name.endsWith('.html.gz'))) {
      pages.set(file.replace(/\.gz$/, ''), () => gunzipSync(readFileSync(join(MAIN_CONTENT, file))));
    }
  }
  const served = await serveSavedPages([...pages.keys()], (name) => pages.get(name)!());
  const baseSources = snapshotRevision(base);
  const newSources = snapshotSources();
  const workers = [await startWorker({ config: baseSources.config }), await startWorker({ config: newSources.config })] as const;
  const failures: string[] = [];
  const differences = { links: new Map<string, number>(), images: new Map<string, number>() };
  const counts = { links: [0, 0, 0], images: [0, 0, 0] };
  const pageDifferences: [string, number, number][] = [];
  const serialize: [number[], number[]] = [[], []];
  try {
    for (const [name, url] of served.urls) {
      const [before, after] = [await read(workers[0], url), await read(workers[1], url)];
      if (typeof before === 'string' || typeof after === 'string') {
        failures.push(`${name}: ${typeof before === 'string' ? before : after}`);
        continue;
      }
      serialize[0].push(before.serialize);
      serialize[1].push(after.serialize);
      let differing = 0;
      let total = 0;
      for (const kind of ['links', 'images'] as const) {
        const [same, all, unpaired] = agreement(before[kind], after[kind], differences[kind]);
        counts[kind][0]! += same;
        counts[kind][1]! += all;
        counts[kind][2]! += unpaired;
        differing += all - same;
        total += all;
      }
      pageDifferences.push([name, differing, total]);
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await served.close();
    baseSources.remove();
    newSources.remove();
  }
  const share = ([same, total, unpaired]: number[]) =>
    `${same} of ${total} (${((100 * same!) / Math.max(1, total!)).toFixed(1)}%); listed by one read only: ${unpaired}`;
  console.log(`# Regions of ${pageDifferences.length} saved pages: ${base} against the working tree\n`);
  console.log(`- links with the same region: ${share(counts.links)}`);
  console.log(`- images with the same region: ${share(counts.images)}`);
  const whole = pageDifferences.filter(([, differing]) => differing === 0).length;
  console.log(`- pages whose every entry agrees: ${whole} of ${pageDifferences.length}`);
  for (const kind of ['links', 'images'] as const) {
    const rows = [...differences[kind]].sort((a, b) => b[1] - a[1]);
    console.log(`- ${kind} that differ: ${rows.length === 0 ? 'none' : rows.map(([pair, n]) => `${pair}: ${n}`).join(', ')}`);
  }
  const worst = pageDifferences.filter(([, differing]) => differing > 0).sort((a, b) => b[1] - a[1]);
  console.log(
    `- pages that differ most: ${
      worst
        .slice(0, 10)
        .map(([name, d, t]) => `${name} (${d} of ${t})`)
        .join(', ') || 'none'
    }`,
  );
  const median = (values: number[]) => percentile(values.filter(Number.isFinite), 50).toFixed(1);
  console.log(`- serialize phase, median over the pages: ${median(serialize[0])} ms (${base}), ${median(serialize[1])} ms (working tree)`);
  console.log(`- failed reads: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
}

await main();
