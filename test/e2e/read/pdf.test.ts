// PDF targets (docs/api.md "Documents (PDF)") against the real Worker, Browser Rendering emulation and
// Chromium: the bytes come out of the browser, are converted in the Durable Object, and answer in both
// formats with the PDF response's status and headers, X-Document-Kind and X-Pdf-Pages; downloads,
// redirects and chunked bodies too; the page bound cuts, the byte bound and the PDFs that cannot be
// read are refused, each with its documented error.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { HYPHENS, LARGE_PDF, LONG_PAGES, longPageText, REPORT } from '../support/pdf-routes.js';

const MAX_PDF_PAGES = 3;
const MAX_PDF_BYTES = 65536;
const ctx = useWorker({ vars: { MAX_PDF_PAGES: String(MAX_PDF_PAGES), MAX_PDF_BYTES: String(MAX_PDF_BYTES) } });

async function fetchJson(path: string, fields: object = {}) {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), ...fields });
  const json = (await response.json()) as {
    data: string;
    status: number;
    headers: Record<string, string>;
    metadata?: Record<string, string | null>;
    error?: { code: string; message: string };
  };
  return { response, json };
}

describe('a PDF target', () => {
  it('answers markdown in reading order: the title as a heading, lines joined into paragraphs, the link, then page two', async () => {
    const { response, json } = await fetchJson('/pdf/report.pdf', { output_format: 'markdown' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    expect(response.headers.get('X-Pdf-Pages')).toBe('2/2');
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/pdf');
    const markdown = json.data;
    expect(markdown.startsWith(`# ${REPORT.title}\n\n`)).toBe(true);
    expect(markdown).toContain(`${REPORT.first} ${REPORT.second}`);
    expect(markdown).toMatch(new RegExp(`\\[[^\\]]*${REPORT.linkText}[^\\]]*\\]\\(${REPORT.linkUrl.replace(/[.]/g, '\\.')}\\)`));
    expect(markdown.indexOf(REPORT.pageTwo)).toBeGreaterThan(markdown.indexOf(REPORT.second));
  });

  it('answers html as a minimal semantic document of the same structure', async () => {
    const { response, json } = await fetchJson('/pdf/report.pdf', { output_format: 'html' });
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    const html = json.data;
    expect(html.startsWith('<!DOCTYPE html><html>')).toBe(true);
    expect(html).toContain(`<title>${REPORT.title}</title>`);
    expect(html).toContain(`<h1>${REPORT.title}</h1>`);
    expect(html).toContain(`<p>${REPORT.first} ${REPORT.second}</p>`);
    expect(html).toMatch(new RegExp(`<a href="${REPORT.linkUrl}">[^<]*${REPORT.linkText}</a>`));
    expect(html).not.toMatch(/<(embed|object|iframe|script)\b/);
  });

  it("fills the metadata from the PDF's own information, the rest null", async () => {
    const { json } = await fetchJson('/pdf/report.pdf', { include_metadata: true });
    expect(json.metadata).toEqual({
      title: REPORT.title,
      description: null,
      language: 'en-GB',
      canonical_url: null,
      site_name: null,
      author: REPORT.author,
      published_time: '2024-03-01T12:00:00.000Z',
      image: null,
    });
  });

  it('answers raw markdown as the body', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pdf/report.pdf'), output_format: 'markdown', raw: true });
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    expect((await response.text()).startsWith(`# ${REPORT.title}\n\n${REPORT.first}`)).toBe(true);
  });

  it("rejoins a word broken by U+2010 HYPHEN at a line's end and keeps a compound's hyphen, in both formats", async () => {
    const markdown = await fetchJson('/pdf/hyphens.pdf', { output_format: 'markdown' });
    expect(markdown.response.status).toBe(200);
    expect(markdown.json.data).toBe(`${HYPHENS.text}\n`);
    const html = await fetchJson('/pdf/hyphens.pdf', { output_format: 'html' });
    expect(html.json.data).toContain(`<p>${HYPHENS.text}</p>`);
  });

  it('answers the same text as its main content', async () => {
    const whole = await fetchJson('/pdf/report.pdf', { output_format: 'markdown' });
    const main = await fetchJson('/pdf/report.pdf', { output_format: 'markdown', only_main_content: true });
    expect(main.response.headers.get('X-Content-Mode')).toBe('main');
    expect(main.json.data).toBe(whole.json.data);
  });

  it('converts a download (Content-Disposition: attachment, application/octet-stream)', async () => {
    const { response, json } = await fetchJson('/pdf/download', { output_format: 'markdown' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    expect(json.headers['content-disposition']).toBe('attachment; filename="report.pdf"');
    expect(json.data.startsWith(`# ${REPORT.title}\n\n`)).toBe(true);
  });

  it("follows a redirect to the PDF: X-Final-Url and status are the PDF response's", async () => {
    const { response, json } = await fetchJson('/pdf/redirect', { output_format: 'markdown' });
    expect(response.headers.get('X-Final-Url')).toBe(ctx.fixtures.url('/pdf/report.pdf'));
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    expect(json.status).toBe(200);
    expect(json.data).toContain(REPORT.pageTwo);
  });

  it('reads a body that arrives in chunks, without a Content-Length', async () => {
    const { response, json } = await fetchJson('/pdf/chunked.pdf', { output_format: 'markdown' });
    expect(response.status).toBe(200);
    expect(json.data).toContain(REPORT.pageTwo);
  });

  it('answers a later identical request from the cache, PDF headers included', async () => {
    const url = ctx.fixtures.url('/pdf/report.pdf?cached');
    const first = await ctx.worker.fetchPage({ url, output_format: 'markdown', max_age: 600 });
    const second = await ctx.worker.fetchPage({ url, output_format: 'markdown', max_age: 600 });
    expect(first.headers.get('X-Cache')).toBe('MISS');
    expect(second.headers.get('X-Cache')).toBe('HIT');
    expect(second.headers.get('X-Document-Kind')).toBe('pdf');
    expect(second.headers.get('X-Pdf-Pages')).toBe('2/2');
    expect(((await second.json()) as { data: string }).data).toBe(((await first.json()) as { data: string }).data);
  });

  it(`converts at most MAX_PDF_PAGES pages (${MAX_PDF_PAGES}) and says so in X-Pdf-Pages`, async () => {
    const { response, json } = await fetchJson('/pdf/long.pdf', { output_format: 'markdown' });
    expect(response.headers.get('X-Pdf-Pages')).toBe(`${MAX_PDF_PAGES}/${LONG_PAGES}`);
    expect(json.data).toContain(longPageText(MAX_PDF_PAGES));
    expect(json.data).not.toContain(longPageText(MAX_PDF_PAGES + 1));
  });
});

describe('a PDF inside a page', () => {
  it('is not converted: the page is the answer, X-Document-Kind html', async () => {
    const { response, json } = await fetchJson('/pdf/embedding', { output_format: 'markdown', wait_event: 'load' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Document-Kind')).toBe('html');
    expect(response.headers.get('X-Pdf-Pages')).toBeNull();
    expect(json.data).toContain('The page around the report.');
    expect(json.data).not.toContain(REPORT.first);
  });
});

describe('PDFs that are refused', () => {
  it.each([
    ['/pdf/scanned.pdf', 'The PDF has no text layer: scanned pages need OCR.'],
    ['/pdf/protected.pdf', 'The PDF is encrypted (it needs a password).'],
    ['/pdf/broken.pdf', 'The PDF is broken: Invalid PDF structure.'],
    ['/pdf/archive.bin', "The target's content type application/octet-stream is not a page that can be rendered."],
  ])('%s answers 502 unsupported_content saying why', async (path, message) => {
    const { response, json } = await fetchJson(path);
    expect(response.status).toBe(502);
    expect(json.error).toEqual({ code: 'unsupported_content', message });
  });

  it.each(['/pdf/large.pdf', '/pdf/large-chunked.pdf'])(
    `%s, over MAX_PDF_BYTES (${MAX_PDF_BYTES}), answers 502 content_too_large`,
    async (path) => {
      expect(LARGE_PDF.length).toBeGreaterThan(MAX_PDF_BYTES);
      const { response, json } = await fetchJson(path);
      expect(response.status).toBe(502);
      expect(json.error).toEqual({ code: 'content_too_large', message: `The PDF is larger than ${MAX_PDF_BYTES} bytes.` });
    },
  );
});

describe('X-Document-Kind on other documents', () => {
  it.each([
    ['/bench/article?fetch_ms=0', 'html'],
    ['/data.json', 'json'],
    ['/text.txt', 'text'],
  ])('%s answers X-Document-Kind %s', async (path, kind) => {
    const { response } = await fetchJson(path, { wait_event: 'load' });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Document-Kind')).toBe(kind);
  });
});
