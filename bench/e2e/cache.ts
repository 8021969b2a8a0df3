// The cache section of `npm run bench:e2e` (also alone: `npm run bench:cache`): on one page in one
// run, the latency of a hit at concurrency 1, hits/s against renders/s at concurrency 8, and what a
// miss costs over a request that never reads the store (max_age 0), in interleaved pairs on fresh
// URLs so that every max_age request is a real miss. Only answers with the expected X-Cache count.
// `npm run bench:cache -- <revision>` adds the same pairs against a Worker from before the cache.
import { fileURLToPath } from 'node:url';
import type { FixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { withAbWorkers } from './ab-workers.js';
import { percentile, runLoad, type Sample } from './load.js';
import { snapshotSources } from './snapshot.js';

const HIT_REQUESTS_C1 = 50;
const HIT_REQUESTS_C8 = 400;
const MISS_REQUESTS_C8 = 56;
const MISS_PAIRS = 40;

export interface CacheFigures {
  hitP50: number;
  hitP95: number;
  hitRps: number;
  missRps: number;
  /** Renders in the concurrency-8 run, every one a MISS (max_age 0). */
  missCount: number;
  /** Paired on fresh URLs: a miss (max_age 600) and max_age 0, medians and the median of the differences. */
  missP50: number;
  offP50: number;
  missMinusOffP50: number;
  /** Answers that were not 200 with the X-Cache the run expected. */
  unexpected: number;
}

type CacheSample = Sample & { cache: string | null };

async function send(worker: WorkerHandle, body: object): Promise<CacheSample> {
  const started = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ raw: true, ...body }),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, cache: response.headers.get('X-Cache') };
}

const median = (values: number[]) => percentile(values, 50);

/** A request for a URL never asked before (so never stored): the static article at DOMContentLoaded. */
function freshPage(fixtures: FixtureServer, tag: string) {
  return { url: fixtures.url(`/pages/article.html?${tag}-${Date.now()}`), wait_event: 'DOMContentLoaded' };
}

/** Runs `first` then `second` in even rounds and the other way round in odd ones, so neither always goes first; answers in argument order. */
async function alternately<T>(round: number, first: () => Promise<T>, second: () => Promise<T>): Promise<[T, T]> {
  if (round % 2 === 0) {
    const earlier = await first();
    return [earlier, await second()];
  }
  const later = await second();
  return [await first(), later];
}

export async function measureCache(worker: WorkerHandle, fixtures: FixtureServer): Promise<CacheFigures> {
  let unexpected = 0;
  const expecting = (cache: string, samples: CacheSample[]) => {
    const good = samples.filter((s) => s.status === 200 && s.cache === cache);
    unexpected += samples.length - good.length;
    return good;
  };
  // The page of the hit and miss runs: the benchmark article, waited for to networkIdle.
  const page = { url: fixtures.url('/bench/article?fetch_ms=300&cache=1'), wait_event: 'networkIdle' };
  await send(worker, { ...page, max_age: 600 });
  for (let tries = 0; (await send(worker, { ...page, max_age: 600 })).cache !== 'HIT' && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const hitsC1 = await runLoad(() => send(worker, { ...page, max_age: 600 }), 1, HIT_REQUESTS_C1);
  const hitMs = expecting('HIT', hitsC1.samples as CacheSample[]).map((s) => s.ms);
  const hitsC8 = await runLoad(() => send(worker, { ...page, max_age: 600 }), 8, HIT_REQUESTS_C8);
  const hitRps = (expecting('HIT', hitsC8.samples as CacheSample[]).length / hitsC8.wallMs) * 1000;
  const missesC8 = await runLoad(() => send(worker, page), 8, MISS_REQUESTS_C8);
  const missCount = expecting('MISS', missesC8.samples as CacheSample[]).length;
  const missRps = (missCount / missesC8.wallMs) * 1000;

  // Fresh URLs (never stored) on a quick page, in pairs whose order alternates.
  const pairs: { miss: number; off: number }[] = [];
  for (let i = 0; i < MISS_PAIRS; i++) {
    const [missSample, offSample] = await alternately(
      i,
      () => send(worker, { ...freshPage(fixtures, `cache-bench=miss-${i}`), max_age: 600 }),
      () => send(worker, freshPage(fixtures, `cache-bench=off-${i}`)),
    );
    if (expecting('MISS', [missSample, offSample]).length === 2) pairs.push({ miss: missSample.ms, off: offSample.ms });
  }
  return {
    hitP50: median(hitMs),
    hitP95: percentile(hitMs, 95),
    hitRps,
    missRps,
    missCount,
    missP50: median(pairs.map((p) => p.miss)),
    offP50: median(pairs.map((p) => p.off)),
    missMinusOffP50: median(pairs.map((p) => p.miss - p.off)),
    unexpected,
  };
}

/**
 * A miss (B, max_age 600) against the same request on a Worker without the cache (A, a revision
 * from before it), on fresh URLs in pairs whose order alternates: p50s and the median difference.
 */
export async function measureMissAgainstNoCache(a: WorkerHandle, b: WorkerHandle, fixtures: FixtureServer) {
  const differences: number[] = [];
  const misses: number[] = [];
  const noCache: number[] = [];
  let unexpected = 0;
  for (let i = 0; i < MISS_PAIRS; i++) {
    const [sampleA, sampleB] = await alternately(
      i,
      () => send(a, freshPage(fixtures, `cache-ab=a-${i}`)),
      () => send(b, { ...freshPage(fixtures, `cache-ab=b-${i}`), max_age: 600 }),
    );
    if (sampleA.status !== 200 || sampleB.status !== 200 || sampleB.cache !== 'MISS') {
      unexpected++;
      continue;
    }
    misses.push(sampleB.ms);
    noCache.push(sampleA.ms);
    differences.push(sampleB.ms - sampleA.ms);
  }
  return {
    missP50: median(misses),
    noCacheP50: median(noCache),
    differenceP50: median(differences),
    pairs: differences.length,
    unexpected,
  };
}

export function cacheSectionLines(figures: CacheFigures): string[] {
  const f = (ms: number) => ms.toFixed(1);
  return [
    '## Cache (max_age, Workers KV under wrangler dev)',
    '',
    `Same page (the article above, networkIdle): ${HIT_REQUESTS_C1} hits at concurrency 1, ${HIT_REQUESTS_C8} hits and ${MISS_REQUESTS_C8} renders (max_age 0) at concurrency 8.`,
    `Miss cost: ${MISS_PAIRS} interleaved pairs on fresh URLs of a static page (DOMContentLoaded), a miss (max_age 600: store read, render, write after the answer) against max_age 0 (no read).`,
    '',
    '| figure | value |',
    '|---|---|',
    `| hit latency p50 / p95, concurrency 1 | ${f(figures.hitP50)} / ${f(figures.hitP95)} ms |`,
    `| hits/s at concurrency 8 | ${figures.hitRps.toFixed(1)} |`,
    `| renders/s at concurrency 8 (max_age 0) | ${figures.missRps.toFixed(2)} |`,
    `| hits/s ÷ renders/s | ${(figures.hitRps / figures.missRps).toFixed(0)}× |`,
    `| miss p50 / max_age 0 p50 | ${f(figures.missP50)} / ${f(figures.offP50)} ms |`,
    `| miss − max_age 0, median of the pairs | ${figures.missMinusOffP50 >= 0 ? '+' : '−'}${f(Math.abs(figures.missMinusOffP50))} ms |`,
    `| answers without the expected X-Cache (not counted) | ${figures.unexpected} |`,
    '',
  ];
}

// Alone: npm run bench:cache [-- <revision without the cache>, for a miss against no cache at all].
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] !== undefined) {
  const revision = process.argv[2];
  await withAbWorkers(revision, async (a, b, fixtures) => {
    for (const worker of [a, b]) await send(worker, { url: fixtures.url('/pages/article.html'), wait_event: 'load' }); // launches each browser
    for (const line of cacheSectionLines(await measureCache(b, fixtures))) console.log(line);
    const ab = await measureMissAgainstNoCache(a, b, fixtures);
    const f = (ms: number) => ms.toFixed(1);
    console.log(
      `A/B on fresh URLs (DOMContentLoaded, ${ab.pairs} pairs, ${ab.unexpected} left out): A ${revision} (no cache) p50 ${f(ab.noCacheP50)} ms,`,
    );
    console.log(`B a miss (max_age 600) p50 ${f(ab.missP50)} ms; B − A, median of the pairs: ${f(ab.differenceP50)} ms`);
  });
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixtures = await startFixtureServer();
  const sources = snapshotSources();
  const worker = await startWorker({ config: sources.config, vars: { BROWSER_IDLE_CLOSE_MS: '3600000' } });
  try {
    await runLoad(() => send(worker, { url: fixtures.url('/pages/article.html'), wait_event: 'load' }), 1, 3); // launches the browser
    for (const line of cacheSectionLines(await measureCache(worker, fixtures))) console.log(line);
  } finally {
    await worker.stop();
    await fixtures.close();
    sources.remove();
  }
}
