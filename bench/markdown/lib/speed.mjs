// Speed: every candidate converts the same pages in one process, interleaved finely so that
// load from other processes hits all of them alike: pages are cut into ~1 MB chunks, and in
// every round each candidate converts each chunk, in an order rotating per chunk and round.
// A full GC (node --expose-gc) runs before each candidate's pass over a chunk. Timed per page:
// convert(html), HTML string in, markdown out, parsing included.
import os from 'node:os';

function chunk(pages, targetBytes) {
  const chunks = [];
  let current = [];
  let bytes = 0;
  for (const p of pages) {
    current.push(p);
    bytes += p.html.length;
    if (bytes >= targetBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

export function runSpeed(candidates, pages, { rounds = 5, warmup = 1, log = () => {} } = {}) {
  const gc = globalThis.gc ?? (() => {});
  const chunks = chunk(pages, 1_000_000);
  const totalBytes = pages.reduce((s, p) => s + Buffer.byteLength(p.html), 0);
  const perRound = Object.fromEntries(candidates.map((c) => [c.name, []]));
  const perPage = Object.fromEntries(candidates.map((c) => [c.name, new Map()]));
  const loads = [];
  for (let r = 0; r < warmup + rounds; r++) {
    const ms = Object.fromEntries(candidates.map((c) => [c.name, 0]));
    loads.push(os.loadavg()[0]);
    chunks.forEach((pagesOfChunk, k) => {
      const shift = (r * chunks.length + k) % candidates.length;
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[(i + shift) % candidates.length];
        gc();
        for (const page of pagesOfChunk) {
          const t0 = performance.now();
          c.convert(page.html);
          const dt = performance.now() - t0;
          ms[c.name] += dt;
          if (r >= warmup) {
            const runs = perPage[c.name].get(page.name) ?? [];
            runs.push(dt);
            perPage[c.name].set(page.name, runs);
          }
        }
      }
    });
    if (r >= warmup) for (const c of candidates) perRound[c.name].push(ms[c.name]);
    log(`  speed round ${r + 1}/${warmup + rounds}${r < warmup ? ' (warm-up)' : ''}, load average ${os.loadavg()[0].toFixed(2)}`);
  }
  loads.push(os.loadavg()[0]);
  const results = {};
  for (const c of candidates) {
    const mbPerS = perRound[c.name].map((ms) => totalBytes / 1e6 / (ms / 1000));
    let bestMs = 0;
    for (const runs of perPage[c.name].values()) bestMs += Math.min(...runs);
    results[c.name] = {
      mbPerS: median(mbPerS),
      msPerPage: median(perRound[c.name]) / pages.length,
      bestMbPerS: totalBytes / 1e6 / (bestMs / 1000),
      rounds: perRound[c.name],
    };
  }
  return {
    results,
    totalBytes,
    pages: pages.length,
    rounds,
    warmup,
    loadAverages: loads,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? '',
  };
}
