// `npm run bench:screenshot`: what the views of a render cost (docs/views.md "Cost"), on the working
// tree, at concurrency 1, the browser warm. Each option is measured against the same request without
// it, in the same run, in rounds that take turns (the order rotating), so a drift in the machine's
// speed falls on all alike; reported as the median of the per-round differences, of the whole answer
// and of the phase the option adds to (serialize, screenshot).
// - include_links, include_images: a 100 KB article (markdown and html, and markdown with
//   only_main_content, whose read finds the main content anyway);
// - screenshot: the viewport (PNG);
// - a full-page PNG of a 30,000 px page of coloured bands: time, the picture's bytes, and the peak
//   memory of the browser's processes while it is taken (the tiles are glued there);
// - the other way to glue, a WebAssembly codec (@jsquash/png, the squoosh codec that runs in Workers)
//   gluing the same tiles in this process: time, bytes and memory. It is not a dependency of the
//   project: set JSQUASH_PNG to an installed copy (`npm install --prefix /tmp/jsq @jsquash/png@3.1.1`,
//   JSQUASH_PNG=/tmp/jsq/node_modules/@jsquash/png); without it that row is skipped.
// Only 200 answers count; the others are named.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { tileRows } from '../../src/browser/read/screenshot-tiles.js';
import { percentile } from './load.js';
import { serverTimingPhase } from './saved-pages.js';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const WARM_UP = 3;

interface Sample {
  total: number;
  serialize: number;
  screenshot: number;
  bytes: number;
}

async function sample(worker: WorkerHandle, body: object, failures: string[]): Promise<Sample | undefined> {
  const start = performance.now();
  const response = await fetch(`${worker.origin}/api/fetch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
    body: JSON.stringify({ wait_event: 'load', wait_ms: 20_000, ...body }),
  });
  const text = await response.text();
  const total = performance.now() - start;
  if (response.status !== 200) {
    failures.push(`${JSON.stringify(body)}: ${response.status} ${text.slice(0, 200)}`);
    return undefined;
  }
  const timing = response.headers.get('Server-Timing');
  const shot = (JSON.parse(text) as { screenshot?: { data: string } }).screenshot;
  return {
    total,
    serialize: serverTimingPhase(timing, 'serialize'),
    screenshot: serverTimingPhase(timing, 'screenshot'),
    bytes: shot === undefined ? 0 : Buffer.from(shot.data, 'base64').length,
  };
}

const median = (values: number[]) => percentile(values.filter(Number.isFinite), 50);
const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '–');

/** Each option against the base request, in rotating order; medians of the per-round differences. */
async function compare(worker: WorkerHandle, base: object, options: [string, object][], failures: string[]) {
  const variants: [string, object][] = [['without', {}], ...options];
  const runs = new Map<string, (Sample | undefined)[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const [name, extra] = variants[(round + i) % variants.length]!;
      runs.get(name)![round] = await sample(worker, { ...base, ...extra }, failures);
    }
  }
  const without = runs.get('without')!;
  const rows: string[] = [];
  for (const [name] of options) {
    const diffs = (pick: (s: Sample) => number) =>
      runs
        .get(name)!
        .map((s, round) => (s === undefined || without[round] === undefined ? NaN : pick(s) - pick(without[round]!)))
        .filter(Number.isFinite);
    const serialize = median(diffs((s) => s.serialize));
    const total = median(diffs((s) => s.total));
    const shot = median(runs.get(name)!.flatMap((s) => (s === undefined ? [] : [s.screenshot])));
    rows.push(
      `| ${name} | ${fmt(median(without.flatMap((s) => (s ? [s.total] : []))))} | ${fmt(total)} | ${fmt(serialize)} | ${fmt(shot)} |`,
    );
  }
  return rows;
}

/** A PNG's width, from its header. */
const decodedWidth = (png: Uint8Array) => new DataView(png.buffer, png.byteOffset).getUint32(16);

/** Resident memory of the browser processes and all their descendants, in MB. */
function browserTreeRss(roots: number[]): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const inTree = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of table) {
      if (inTree.has(ppid) && !inTree.has(pid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return table.reduce((sum, [pid, , rss]) => (inTree.has(pid) ? sum + rss : sum), 0) / 1024;
}

async function fullPage(worker: WorkerHandle, url: string, failures: string[]): Promise<string[]> {
  const rows: string[] = [];
  for (const type of ['png', 'jpeg', 'webp'] as const) {
    const samples: Sample[] = [];
    let peak = 0;
    for (let i = 0; i < 5; i++) {
      const before = browserTreeRss(worker.liveBrowserPids());
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, browserTreeRss(worker.liveBrowserPids()) - before);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const result = await sample(
        worker,
        { url, output_format: 'markdown', screenshot: { full_page: true, type, ...(type === 'png' ? {} : { quality: 80 }) } },
        failures,
      );
      sampling = false;
      await sampler;
      if (result !== undefined) samples.push(result);
    }
    rows.push(
      `| ${type} | ${fmt(median(samples.map((s) => s.screenshot)))} | ${fmt(median(samples.map((s) => s.total)))} | ${(median(samples.map((s) => s.bytes)) / 1024).toFixed(0)} KiB | ${peak.toFixed(0)} MB |`,
    );
  }
  return rows;
}

interface PngCodec {
  decode(png: ArrayBuffer): Promise<{ data: Uint8ClampedArray; width: number; height: number }>;
  encode(image: { data: Uint8ClampedArray; width: number; height: number }): Promise<ArrayBuffer>;
}

/** @jsquash/png from the copy JSQUASH_PNG names, or undefined. */
async function jsquashPng(): Promise<PngCodec | undefined> {
  const dir = process.env.JSQUASH_PNG;
  if (dir === undefined) return undefined;
  // The codec makes ImageData, which Node lacks: a plain holder of the same fields.
  (globalThis as Record<string, unknown>).ImageData ??= class {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
  const decoder = await import(`${dir}/decode.js`);
  const encoder = await import(`${dir}/encode.js`);
  const wasm = await readFile(`${dir}/codec/pkg/squoosh_png_bg.wasm`);
  await decoder.init(wasm);
  await encoder.init(wasm);
  const ImageDataClass = (globalThis as Record<string, unknown>).ImageData as new (d: Uint8ClampedArray, w: number, h: number) => unknown;
  return {
    decode: (png) => decoder.default(png),
    encode: ({ data, width, height }) => encoder.default(new ImageDataClass(data, width, height)),
  };
}

/**
 * The WebAssembly way on the tiles the service would capture of `picture` (rows of `rowHeight` px,
 * made untimed from the picture itself): decode each, copy it into one RGBA buffer, encode that.
 */
async function wasmGlue(codec: PngCodec, picture: Uint8Array, rowHeight: number): Promise<string> {
  const whole = await codec.decode(picture.slice().buffer);
  const { width, height } = whole;
  const tiles: ArrayBuffer[] = [];
  for (let top = 0; top < height; top += rowHeight) {
    const rows = Math.min(rowHeight, height - top);
    tiles.push(await codec.encode({ data: whole.data.slice(top * width * 4, (top + rows) * width * 4), width, height: rows }));
  }
  global.gc?.();
  const before = process.memoryUsage();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - before.rss);
  }, 10);
  const start = performance.now();
  const buffer = new Uint8ClampedArray(width * height * 4);
  let top = 0;
  for (const tile of tiles) {
    const image = await codec.decode(tile);
    buffer.set(image.data, top * width * 4);
    top += image.height;
  }
  const encoded = await codec.encode({ data: buffer, width, height });
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss - before.rss);
  return `| png, @jsquash/png in Node (${tiles.length} tiles of ${width} × ${rowHeight}) | ${fmt(ms)} | – | ${(encoded.byteLength / 1024).toFixed(0)} KiB | ${(peak / 1024 / 1024).toFixed(0)} MB (this process) |`;
}

async function main() {
  const fixtures = await startFixtureServer();
  const worker = await startWorker();
  const failures: string[] = [];
  try {
    const article = fixtures.url('/views/article?kb=100');
    for (let i = 0; i < WARM_UP; i++) await sample(worker, { url: article, include_links: true, screenshot: true }, failures);
    console.log(`# The views' cost, concurrency 1, ${ROUNDS} rounds, wait_event load\n`);
    console.log('Median of the per-round differences against the same request without the option (ms).\n');
    const LISTS: [string, object][] = [
      ['include_links', { include_links: true }],
      ['include_images', { include_images: true }],
    ];
    // With only_main_content the read runs the main-content extraction anyway: what is left is the gathering.
    const sections: [string, object, [string, object][]][] = [
      ['markdown', { output_format: 'markdown' }, [...LISTS, ['screenshot (viewport, png)', { screenshot: true }]]],
      ['html', { output_format: 'html' }, [...LISTS, ['screenshot (viewport, png)', { screenshot: true }]]],
      ['markdown, only_main_content', { output_format: 'markdown', only_main_content: true }, LISTS],
    ];
    for (const [name, fields, options] of sections) {
      console.log(`## 100 KB article, ${name}\n`);
      console.log('| option | answer without (ms) | answer: difference | serialize: difference | screenshot phase |');
      console.log('|---|---|---|---|---|');
      console.log(`${(await compare(worker, { url: article, ...fields }, options, failures)).join('\n')}\n`);
    }
    console.log('## Full page of 30,000 px (coloured bands), 5 requests each\n');
    console.log('| type | screenshot phase p50 (ms) | answer p50 (ms) | picture | browser memory, peak growth |');
    console.log('|---|---|---|---|---|');
    console.log((await fullPage(worker, fixtures.url('/views/bands'), failures)).join('\n'));
    const codec = await jsquashPng();
    if (codec === undefined) console.log('| png, @jsquash/png | skipped: set JSQUASH_PNG | | | |');
    else {
      const picture = await fetch(`${worker.origin}/api/fetch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_TOKEN}` },
        body: JSON.stringify({ url: fixtures.url('/views/bands'), wait_event: 'load', raw: true, screenshot: { full_page: true } }),
      });
      const bytes = new Uint8Array(await picture.arrayBuffer());
      const rowHeight = tileRows({ x: 0, y: 0, width: decodedWidth(bytes), height: 30_000 }, 1)[0]!.height;
      console.log(await wasmGlue(codec, bytes, rowHeight));
    }
    console.log(`\n- non-200 answers: ${failures.length === 0 ? 'none' : failures.join('; ')}`);
  } finally {
    await worker.stop();
    await fixtures.close();
  }
}

await main();
