// `npm run bench:pdf`: PDF → markdown on the public sample of olmOCR-bench (../shared/bench/pdf: its
// PDFs and unit tests, its scorer and the plain extractors' scores, read from there). Serves the PDFs
// on 127.0.0.1 to the running service (the real Worker under wrangler dev, its Browser Rendering
// emulation and Chromium), saves one markdown per PDF, scores them with the shared scorer, and writes
// docs/pdf-benchmark.md: our row next to the anchors, per test type, for all the PDFs and for each half
// (by name, alternately: the split rules are tuned on one and checked on the other), the failing
// tests with the scorer's reason, the conversion time per page (the Durable Object's serialize
// phase over the pages converted, p50 and p95), the time a 300-page PDF takes through the service,
// and the memory of converting the largest PDF (the same
// code in a Node process of its own: its peak resident memory over that of a process that only
// loaded the modules).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker } from '../../test/e2e/support/worker.js';
import { buildPdf, type TextRun } from '../../test/unit/pdf/build-pdf.js';
import { percentile } from '../e2e/load.js';
import { serverTimingPhase } from '../e2e/saved-pages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HARNESS = join(ROOT, '../shared/bench/pdf');
const PDFS = join(HARNESS, 'data/pdfs');
const OUTPUT = join(ROOT, 'docs/pdf-benchmark.md');
const TYPES = ['present', 'absent', 'order', 'table', 'math'] as const;

interface TestResult {
  id: string;
  pdf: string;
  type: string;
  pass: boolean;
  reason: string;
}
interface Scored {
  tests: TestResult[];
}
type Score = (options: { outputs: string; dataDir: string }) => Scored;

const { scoreOutputs, listPdfs } = (await import(join(HARNESS, 'score.mjs'))) as {
  scoreOutputs: Score;
  listPdfs: (dir: string) => string[];
};

/** Pages of the long document: the default MAX_PDF_PAGES, each two columns of 45 lines. */
const LONG_PAGES = 300;

/** A 300-page, two-column document, every line its own sentence: what the page bound is about. */
function longPdf(): Buffer {
  const pages = Array.from({ length: LONG_PAGES }, (_, page) => {
    const runs: TextRun[] = [];
    for (const [column, x] of [72, 324].entries()) {
      for (let line = 0; line < 45; line++) {
        runs.push({ x, y: 80 + 14 * line, size: 10, text: `Page ${page + 1}, column ${column + 1}, line ${line + 1} of the report.` });
      }
    }
    return { runs };
  });
  return Buffer.from(buildPdf({ pages }));
}

/** Serves the sample's PDFs as application/pdf, and the long document as /long.pdf. */
async function servePdfs() {
  const long = longPdf();
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    try {
      const body = rel === 'long.pdf' ? long : readFileSync(join(PDFS, rel));
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Conversion {
  pdf: string;
  ok: boolean;
  note: string;
  msPerPage?: number;
}

interface LongRun {
  status: number;
  pages: string | null;
  latencyMs: number;
  serializeMs: number;
}

async function collect(outDir: string): Promise<{ conversions: Conversion[]; long: LongRun }> {
  const files = await servePdfs();
  const worker = await startWorker();
  const conversions: Conversion[] = [];
  try {
    const started = performance.now();
    const response = await worker.fetchPage({ url: `${files.base}long.pdf`, output_format: 'markdown' });
    await response.arrayBuffer();
    const long: LongRun = {
      status: response.status,
      pages: response.headers.get('X-Pdf-Pages'),
      latencyMs: performance.now() - started,
      serializeMs: serverTimingPhase(response.headers.get('Server-Timing'), 'serialize'),
    };
    for (const pdf of listPdfs(PDFS)) {
      const url = files.base + pdf.split('/').map(encodeURIComponent).join('/');
      const response = await worker.fetchPage({ url, output_format: 'markdown' });
      const body = (await response.json()) as { data?: string; error?: { code: string; message: string } };
      if (response.status !== 200 || body.data === undefined) {
        conversions.push({ pdf, ok: false, note: `${response.status} ${body.error?.code}: ${body.error?.message}` });
        continue;
      }
      const dest = join(outDir, pdf.replace(/\.pdf$/i, '.md'));
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, body.data);
      const pages = Number((response.headers.get('X-Pdf-Pages') ?? '1/1').split('/')[0]);
      const serialize = serverTimingPhase(response.headers.get('Server-Timing'), 'serialize');
      conversions.push({ pdf, ok: true, note: `${pages} page(s)`, msPerPage: serialize / pages });
    }
    return { conversions, long };
  } finally {
    await worker.stop();
    await files.close();
  }
}

/** Peak resident memory of converting `pdf`, over a process that only loads the modules, in MiB. */
function conversionMemory(pdf: string): number {
  const peakKib = (arg: string) =>
    Number(
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/pdf/convert-memory.ts'), arg], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim(),
    );
  return (peakKib(join(PDFS, pdf)) - peakKib('--baseline')) / 1024;
}

type Counts = Record<string, { passed: number; total: number }>;

function counts(tests: TestResult[]): Counts {
  const byType: Counts = Object.fromEntries(TYPES.map((type) => [type, { passed: 0, total: 0 }]));
  for (const test of tests) {
    byType[test.type]!.total++;
    if (test.pass) byType[test.type]!.passed++;
  }
  return byType;
}

const nonMath = (byType: Counts) => {
  const kept = Object.entries(byType).filter(([type]) => type !== 'math');
  const passed = kept.reduce((sum, [, v]) => sum + v.passed, 0);
  const total = kept.reduce((sum, [, v]) => sum + v.total, 0);
  return `${passed}/${total} = **${((100 * passed) / total).toFixed(1)} %**`;
};

const row = (label: string, byType: Counts) =>
  `| ${label} | ${TYPES.map((type) => `${byType[type]!.passed}/${byType[type]!.total}`).join(' | ')} | ${nonMath(byType)} |`;

/** The anchors' rows of the harness README (plain extractors and olmOCR's pipeline, run there): its table under "## Anchors". */
function anchorRows(): string[] {
  const readme = readFileSync(join(HARNESS, 'README.md'), 'utf8');
  const lines = readme.slice(readme.indexOf('## Anchors')).split('\n');
  const header = lines.findIndex((line) => line.startsWith('| anchor |'));
  const rows: string[] = [];
  // The rows after the header and its separator, up to the first line that is not a row.
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'page-fetch-pdf-'));
  try {
    const { conversions, long } = await collect(outDir);
    const { tests } = scoreOutputs({ outputs: outDir, dataDir: join(HARNESS, 'data') });
    const pdfs = listPdfs(PDFS);
    const half = (n: 0 | 1) => new Set(pdfs.filter((_, i) => i % 2 === n));
    const [a, b] = [half(0), half(1)];
    const timings = conversions.flatMap((c) => (c.msPerPage === undefined ? [] : [c.msPerPage]));
    const largest = pdfs.reduce((big, pdf) => (statSync(join(PDFS, pdf)).size > statSync(join(PDFS, big)).size ? pdf : big));
    const memory = conversionMemory(largest);
    const lines = [
      '# PDF benchmark (olmOCR-bench public sample)',
      '',
      `How PDF targets convert to markdown on olmOCR-bench's public sample, next to plain extractors, and what conversion costs. Written by \`npm run bench:pdf\`. The harness, the ${pdfs.length} PDFs, the ${tests.length} tests, the scorer and the anchors are those of`,
      '`../shared/bench/pdf` (allenai/olmocr, Apache-2.0): each PDF is served on 127.0.0.1 to the running service (the real',
      'Worker under `wrangler dev`, its Browser Rendering emulation and Chromium), its markdown saved and scored by the',
      "harness's `score.mjs`. Math is counted apart (a verbatim TeX check a text layer is not expected to pass).",
      '',
      '| run | present | absent | order | table | math | overall excl. math |',
      '|:--|--:|--:|--:|--:|--:|--:|',
      row(`**Page Fetch** (all ${pdfs.length} PDFs)`, counts(tests)),
      row('Page Fetch, half A (1st, 3rd, … PDF by name)', counts(tests.filter((t) => a.has(t.pdf)))),
      row('Page Fetch, half B (2nd, 4th, …)', counts(tests.filter((t) => b.has(t.pdf)))),
      ...anchorRows(),
      '',
      `Conversion time per page (the Durable Object's serialize phase over the pages converted, ${timings.length} PDFs):`,
      `p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms.`,
      `Memory converting the largest PDF (${largest}, ${(statSync(join(PDFS, largest)).size / 1024).toFixed(0)} KiB), the same`,
      `code in a Node process of its own: ${memory.toFixed(1)} MiB of peak resident memory over a process that only loaded it.`,
      '',
      `A ${LONG_PAGES}-page two-column PDF (written by the benchmark, 90 lines a page), the whole request through the service:`,
      `${long.status}, X-Pdf-Pages ${long.pages}, ${(long.latencyMs / 1000).toFixed(1)} s (conversion ${(long.serializeMs / 1000).toFixed(1)} s);`,
      'the bound it must answer within is the default NAVIGATION_TIMEOUT_MS, 30 s.',
      '',
      '## PDFs the service did not convert',
      '',
      ...conversions.filter((c) => !c.ok).map((c) => `- \`${c.pdf}\`: ${c.note}`),
      ...(conversions.every((c) => c.ok) ? ['None.'] : []),
      '',
      '## Failing tests',
      '',
      '| test | type | pdf | why |',
      '|:--|:--|:--|:--|',
      ...tests
        .filter((t) => !t.pass)
        .map((t) => `| \`${t.id}\` | ${t.type} | ${t.pdf} | ${t.reason.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 160)} |`),
      '',
    ];
    writeFileSync(OUTPUT, lines.join('\n'));
    console.log(lines.slice(7, 22).join('\n'));
    console.log(`written: ${OUTPUT}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
