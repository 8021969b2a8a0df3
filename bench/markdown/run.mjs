#!/usr/bin/env node
// `npm run bench:markdown`: our HTML→markdown serializer (src/markdown) against turndown,
// node-html-markdown and mdream on (1) the CommonMark spec round trip, (2) the saved real pages
// of ../shared/corpus/pages and (3) speed. Prints the tables and writes them to
// docs/markdown-benchmark.md (and the full results as JSON to the system temp folder).
//
//   node --expose-gc bench/markdown/run.mjs [--suite all|commonmark|pages|speed] [--rounds N]
//        [--warmup N] [--pages DIR] [--out FILE.json] [--no-doc]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkedomParse, loadPeers, loadProject } from './lib/candidates.mjs';
import { runCommonMark } from './lib/commonmark.mjs';
import { runPages } from './lib/pages.mjs';
import { renderReport } from './lib/report.mjs';
import { runSpeed } from './lib/speed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../..');

function parseArgs(argv) {
  const opts = {
    suite: 'all',
    rounds: 5,
    warmup: 1,
    pages: path.resolve(projectRoot, '../shared/corpus/pages'),
    out: path.join(os.tmpdir(), 'page-fetch-markdown-bench.json'),
    doc: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--suite') opts.suite = next();
    else if (a === '--rounds') opts.rounds = Number(next());
    else if (a === '--warmup') opts.warmup = Number(next());
    else if (a === '--pages') opts.pages = path.resolve(next());
    else if (a === '--out') opts.out = path.resolve(next());
    else if (a === '--no-doc') opts.doc = false;
    else throw new Error(`unknown option ${a}`);
  }
  if (!['all', 'commonmark', 'pages', 'speed'].includes(opts.suite)) throw new Error(`unknown suite ${opts.suite}`);
  return opts;
}

function loadPages(dir) {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(
      `bench:markdown: the page corpus is missing: ${dir}\n` +
        'It lives in ../shared/corpus/pages beside the project (not part of this repository).',
    );
    process.exit(2);
  }
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort();
  if (files.length === 0) {
    console.error(`bench:markdown: no .html pages in ${dir}`);
    process.exit(2);
  }
  return files.map((f) => ({ name: f.slice(0, -5), html: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const log = (m) => process.stderr.write(`${m}\n`);
  const wants = (s) => opts.suite === 'all' || opts.suite === s;
  const pages = wants('pages') || wants('speed') ? loadPages(opts.pages) : [];
  if (wants('speed') && globalThis.gc === undefined)
    log('note: run with node --expose-gc for a GC between candidates (npm run bench:markdown does)');
  const candidates = [await loadProject(), ...(await loadPeers(log))];
  const started = new Date();
  const results = {
    date: started.toISOString(),
    node: process.version,
    pagesDir: opts.pages,
    candidates: candidates.map(({ name, version, setup }) => ({ name, version, setup })),
  };
  if (wants('commonmark')) {
    log('suite commonmark ...');
    results.commonmark = runCommonMark(candidates, log);
  }
  if (wants('pages')) {
    log(`suite pages: ${pages.length} pages ...`);
    results.pages = runPages(candidates, pages, () => {});
  }
  if (wants('speed')) {
    log('suite speed ...');
    results.speed = runSpeed([...candidates, linkedomParse], pages, { rounds: opts.rounds, warmup: opts.warmup, log });
  }
  results.seconds = (Date.now() - started.getTime()) / 1000;
  fs.writeFileSync(
    opts.out,
    JSON.stringify(results, (_key, v) => (v instanceof Map ? Object.fromEntries(v) : v), 1),
  );
  const report = renderReport(results);
  process.stdout.write(`${report.tables}\n`);
  if (opts.doc && opts.suite === 'all') {
    const doc = path.join(projectRoot, 'docs/markdown-benchmark.md');
    fs.writeFileSync(doc, report.document);
    log(`wrote ${path.relative(projectRoot, doc)}`);
  }
  log(`results: ${opts.out} (${results.seconds.toFixed(0)} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
