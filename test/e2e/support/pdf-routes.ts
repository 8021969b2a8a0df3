// PDF targets for the e2e tests (docs/api.md "Documents (PDF)"), written by the unit tests' PDF builder: a two-page
// report served as a PDF, as a download, behind a redirect and in chunks; a long one for the page
// bound; one with words broken at line ends; and the ones refused: no text layer,
// password-protected, broken, too large, a binary that is no PDF. Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildPdf, type PageSpec, type PdfSpec } from '../../unit/pdf/build-pdf.js';

const writePdf = (pages: PageSpec[], options: Omit<PdfSpec, 'pages'> = {}) => Buffer.from(buildPdf({ pages, ...options }));

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

export const REPORT = {
  title: 'Harbour Report',
  author: 'Ada Quay',
  first: 'The harbour wall was rebuilt in 1862 after the great storm.',
  second: 'Fishing boats still land their catch there every morning.',
  linkText: 'the town archive',
  linkUrl: 'https://archive.example.org/harbour',
  pageTwo: 'The lighthouse keeper kept a log of every ship that passed.',
};

const REPORT_PAGES: PageSpec[] = [
  {
    runs: [
      { x: 72, y: 92, size: 24, bold: true, text: REPORT.title },
      { x: 72, y: 132, size: 11, text: REPORT.first },
      { x: 72, y: 147, size: 11, text: REPORT.second },
      { x: 72, y: 177, size: 11, text: `Records are kept in ${REPORT.linkText}.` },
    ],
    links: [{ box: [160, 166, 250, 180], url: REPORT.linkUrl }],
  },
  { runs: [{ x: 72, y: 92, size: 11, text: REPORT.pageTwo }] },
];

export const REPORT_PDF = writePdf(REPORT_PAGES, {
  info: { Title: REPORT.title, Author: REPORT.author, CreationDate: 'D:20240301120000Z' },
  lang: 'en-GB',
});

/** Page n of the long document says so. */
export const longPageText = (n: number) => `This is the text of page number ${n} of the long document.`;
export const LONG_PAGES = 5;
// Each page's text stands at its own height, as body text does (a line at the same place on every
// page is a running header, which is left out).
const LONG_PDF = writePdf(
  Array.from({ length: LONG_PAGES }, (_, i) => ({
    runs: [
      { x: 72, y: 700 - 40 * i, size: 11, text: longPageText(i + 1) },
      {
        x: 72,
        y: 685 - 40 * i,
        size: 11,
        text: `It has ${i + 3} lines of notes about the ${['harbour', 'lighthouse', 'market', 'bridge', 'chapel'][i]}.`,
      },
    ],
  })),
);

/** A paragraph whose lines end in hyphens: U+2010 inside a word (as Chromium prints it), then a compound's. */
export const HYPHENS = {
  lines: ['The guide covers the international\u2010', 'ization of every screen, and a state-', 'of-the-art search for the texts.'],
  text: 'The guide covers the internationalization of every screen, and a state-of-the-art search for the texts.',
};
const HYPHENS_PDF = writePdf([{ runs: HYPHENS.lines.map((text, i) => ({ x: 72, y: 130 + 15 * i, size: 12, text })) }]);

/** Larger than the e2e Worker's MAX_PDF_BYTES (test/e2e/read/pdf.test.ts). */
export const LARGE_PDF = writePdf(REPORT_PAGES, { padding: 200_000 });

function send(res: ServerResponse, body: Buffer, headers: Record<string, string>) {
  res.writeHead(200, { 'Content-Length': String(body.length), 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

const pdf = (body: Buffer) => (_url: URL, _req: IncomingMessage, res: ServerResponse) =>
  send(res, body, { 'Content-Type': 'application/pdf' });

export const pdfRoutes: Record<string, Handler> = {
  '/pdf/report.pdf': pdf(REPORT_PDF),
  '/pdf/download': (_url, _req, res) =>
    send(res, REPORT_PDF, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="report.pdf"' }),
  '/pdf/redirect': (_url, _req, res) => {
    res.writeHead(302, { Location: '/pdf/report.pdf', 'Cache-Control': 'no-store' });
    res.end();
  },
  // No Content-Length: the body arrives in chunks, its size known only once read.
  '/pdf/chunked.pdf': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/pdf', 'Cache-Control': 'no-store' });
    const half = Math.floor(REPORT_PDF.length / 2);
    res.write(REPORT_PDF.subarray(0, half));
    setTimeout(() => res.end(REPORT_PDF.subarray(half)), 50);
  },
  // Headers and the first half of the body, then nothing more: a PDF that never finishes arriving.
  '/pdf/stalled.pdf': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': String(REPORT_PDF.length), 'Cache-Control': 'no-store' });
    res.write(REPORT_PDF.subarray(0, Math.floor(REPORT_PDF.length / 2)));
  },
  '/pdf/long.pdf': pdf(LONG_PDF),
  '/pdf/hyphens.pdf': pdf(HYPHENS_PDF),
  '/pdf/scanned.pdf': pdf(writePdf([{ runs: [] }, { runs: [] }])),
  '/pdf/protected.pdf': pdf(writePdf(REPORT_PAGES, { encrypted: true })),
  '/pdf/broken.pdf': pdf(Buffer.from('%PDF-1.7\nthis is not the rest of a PDF file\n%%EOF\n', 'latin1')),
  '/pdf/large.pdf': pdf(LARGE_PDF),
  '/pdf/large-chunked.pdf': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/pdf', 'Cache-Control': 'no-store' });
    res.end(LARGE_PDF);
  },
  // A page that shows a PDF in a frame and an embed: the page is the target, the PDF is not converted.
  '/pdf/embedding': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(
      '<!doctype html><title>Embedding</title><p>The page around the report.</p><iframe src="/pdf/report.pdf"></iframe><embed src="/pdf/report.pdf" type="application/pdf">',
    );
  },
  '/pdf/archive.bin': (_url, _req, res) =>
    send(res, Buffer.from('PK\u0003\u0004 an archive, not a PDF'.padEnd(2000, '.')), { 'Content-Type': 'application/octet-stream' }),
};
