// The playground at GET / driven in a real headless Chromium (Playwright) against the real Worker:
// the page loads without a token, fetches a fixture page through /api/fetch, and shows the rendered
// markdown, status, headers, Server-Timing phases and a curl command that never contains the token.
// With UPDATE_SCREENSHOTS=1 it rewrites docs/playground-*.png, the screenshots the README shows
// (not on every run: ports and timings differ each time, and the images are committed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

const ctx = useWorker();
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

/** Takes a full-page screenshot; writes it to docs/ only when asked to. */
async function screenshot(page: Page, name: string): Promise<void> {
  const path = process.env.UPDATE_SCREENSHOTS === '1' ? `${DOCS}playground-${name}.png` : undefined;
  const image = await page.screenshot({ path, fullPage: true });
  expect(image.subarray(1, 4).toString()).toBe('PNG');
}

let browser: Browser;

/**
 * A page that tries everything to run script in the playground: inline scripts, event handlers,
 * javascript: links and markup written as text. Served here because no shared fixture is this hostile.
 */
const HOSTILE_PAGE = (() => {
  // The API returns the DOM after the page's scripts ran in the Worker's browser, so each payload
  // acts only where it must never run: anywhere but at its own address.
  const payload =
    "if (location.pathname !== '/hostile.html') { try { top.pwned = true } catch {} document.documentElement.dataset.ran = '1' }";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hostile</title>
<script>${payload}</script></head>
<body onload="${payload}">
<h1>Hostile</h1>
<p>Markup as text: &lt;img src=x onerror=top.pwned=true&gt;</p>
<p><img src="x" alt="broken" onerror="${payload}"></p>
<p><a href="javascript:top.pwned=true">a javascript: link</a></p>
<script>${payload}</script>
</body></html>`;
})();
const hostile = {
  origin: '',
  server: createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HOSTILE_PAGE)),
};

beforeAll(async () => {
  await new Promise<void>((resolve) => hostile.server.listen(0, '127.0.0.1', resolve));
  hostile.origin = `http://127.0.0.1:${(hostile.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless=new',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  hostile.server.closeAllConnections();
  await new Promise<void>((resolve) => hostile.server.close(() => resolve()));
});

/** A fresh page at the playground; every test gets its own context, so no sessionStorage is shared. */
async function openPlayground(): Promise<{ page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    // The preview frame's own complaints (blocked scripts, styles and images) are the sandbox working.
    if (message.type() === 'error' && message.location().url !== 'about:srcdoc') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  const response = await page.goto(`${ctx.worker.origin}/`);
  expect(response?.status()).toBe(200);
  return { page, consoleErrors };
}

async function fetchThroughForm(page: Page, url: string, format: 'markdown' | 'html'): Promise<void> {
  await page.getByLabel('API token').fill(TEST_TOKEN);
  await page.getByLabel('URL', { exact: true }).fill(url);
  await page.getByLabel('Output format').selectOption(format);
  await page.getByLabel('Wait event').selectOption('load');
  await page.getByRole('button', { name: 'Fetch' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Done in/ })
    .waitFor({ timeout: 45_000 });
}

describe('the playground page', () => {
  it('loads without a token, as HTML with a strict CSP and no asset from another origin', async () => {
    const response = await fetch(`${ctx.worker.origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).toContain('<title>Page Fetch playground</title>');
    // Every script and stylesheet is a path on this server.
    const assetUrls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assetUrls).toEqual(['/playground/icon.svg', '/playground/style.css', '/playground/app.js']);

    for (const [path, type] of [
      ['/playground/app.js', 'text/javascript; charset=utf-8'],
      ['/playground/markdown-it.js', 'text/javascript; charset=utf-8'],
      ['/playground/style.css', 'text/css; charset=utf-8'],
      ['/playground/icon.svg', 'image/svg+xml'],
    ] as const) {
      const asset = await fetch(`${ctx.worker.origin}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('Content-Type'), path).toBe(type);
    }
    expect((await fetch(`${ctx.worker.origin}/playground/missing.js`)).status).toBe(404);
  });

  it('shows the form with a labelled control for every request option and its script running', async () => {
    const { page, consoleErrors } = await openPlayground();
    const labels = ['API token', 'URL', 'Output format', 'Wait event', 'Wait budget (ms)', 'Proxy', 'Country', 'Max age (s)'];
    const visit = ['Device', 'Viewport width', 'Viewport height', 'Request headers', 'Cookies'];
    for (const label of [...labels, 'Wait for selector', 'Only these parts', 'Leave out', ...visit]) {
      await expect(page.getByLabel(label, { exact: true }).count(), label).resolves.toBe(1);
    }
    await expect(page.getByLabel(/raw/).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel(/include_metadata/).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel(/only_main_content/).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel(/scroll/).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel(/consent: "keep"/).isChecked()).resolves.toBe(false);
    expect(await page.getByLabel('Wait event').locator('option').allTextContents()).toEqual([
      'default (networkIdle)',
      'DOMContentLoaded',
      'load',
      'networkAlmostIdle',
      'networkIdle',
    ]);
    expect(await page.getByLabel('API token').getAttribute('type')).toBe('password');
    // The script (and the markdown-it it imports) loaded: an empty form is answered in the page.
    await page.getByRole('button', { name: 'Fetch' }).click();
    expect(await page.getByRole('status').textContent()).toBe('Enter a URL.');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('fetching through the playground', () => {
  it('renders the markdown of a page with its heading and link, the status, headers, timings and a curl command without the token', async () => {
    const { page, consoleErrors } = await openPlayground();
    const target = ctx.fixtures.url('/pages/article.html');
    await fetchThroughForm(page, target, 'markdown');

    const rendered = page.locator('#view-rendered');
    await expect(rendered.isVisible()).resolves.toBe(true);
    expect(await rendered.locator('h1').textContent()).toBe('An article');
    const link = rendered.getByRole('link', { name: 'relative link' });
    expect(await link.getAttribute('href')).toBe(ctx.fixtures.url('/pages/other.html'));
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await rendered.locator('table td').allTextContents()).toEqual(['1', '2']);
    // The page's script is text in neither view, and markdown is shown rendered, not as source.
    expect(await rendered.textContent()).not.toContain('script text that must not appear');
    expect(await rendered.textContent()).not.toContain('# An article');

    const summary = page.locator('#summary');
    expect(await summary.locator('dt').allTextContents()).toEqual([
      'API status',
      'Page status',
      'Final URL',
      'Wait result',
      'Document',
      'Cache',
      'Time',
    ]);
    expect((await summary.locator('dd').allTextContents()).slice(0, 6)).toEqual(['200', '200', target, 'event', 'html', 'MISS']);

    const responseHeaders = page.locator('#response-headers');
    expect(await responseHeaders.locator('th').allTextContents()).toEqual(
      expect.arrayContaining(['x-request-id', 'x-final-url', 'x-wait-result', 'x-page-status', 'x-document-kind', 'server-timing']),
    );
    const pageHeaders = page.locator('#page-headers');
    expect(await pageHeaders.locator('tr', { hasText: 'content-type' }).locator('td').textContent()).toBe('text/html; charset=utf-8');
    expect(await page.locator('#timings tbody td:first-child').allTextContents()).toEqual([
      'queue',
      'acquire',
      'navigate',
      'wait',
      'serialize',
      'convert',
    ]);

    const curl = (await page.locator('#curl').textContent()) ?? '';
    expect(curl).toContain(`${ctx.worker.origin}/api/fetch`);
    expect(curl).toContain(`"url":"${target}"`);
    expect(curl).toContain('"output_format":"markdown"');
    expect(curl).toContain('"wait_event":"load"');
    expect(curl).toContain('Bearer $PAGE_FETCH_TOKEN');
    expect(curl).not.toContain(TEST_TOKEN);
    // The token was not kept: "Keep it for this tab" was left unticked.
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(consoleErrors).toEqual([]);

    await screenshot(page, 'markdown');
    await page.getByRole('tab', { name: 'Source' }).click();
    expect(await page.locator('#source-code').textContent()).toContain('# An article');
    await page.context().close();
  });

  it('previews fetched HTML in an iframe sandboxed without scripts, and shows the source as text', async () => {
    const { page, consoleErrors } = await openPlayground();
    await fetchThroughForm(page, ctx.fixtures.url('/pages/article.html'), 'html');

    const frame = page.locator('#preview-frame');
    await expect(frame.isVisible()).resolves.toBe(true);
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await page.getByRole('tab', { name: 'Rendered markdown' }).isVisible()).toBe(false);
    const preview = page.frameLocator('#preview-frame');
    expect(await preview.locator('h1').textContent()).toBe('An article');
    // The sandbox gives the frame an opaque origin: its document is unreachable from the page.
    expect(await page.evaluate<unknown>("document.getElementById('preview-frame').contentDocument")).toBeNull();

    await page.getByRole('tab', { name: 'Source' }).click();
    const source = (await page.locator('#source-code').textContent()) ?? '';
    expect(source.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(source).toContain("console.log('script text that must not appear')");
    expect(await page.locator('#view-source script').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.getByRole('tab', { name: 'HTML preview' }).click();
    await screenshot(page, 'preview');
    await page.context().close();
  });

  it('shows the links grouped by region, the images and the screenshot', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel(/include_links/).check();
    await page.getByLabel(/include_images/).check();
    await page.locator('#screenshot').selectOption('viewport');
    await fetchThroughForm(page, ctx.fixtures.url('/views/links'), 'markdown');

    expect(await page.locator('#links h4').allTextContents()).toEqual([
      'main (3)',
      'navigation (3)',
      'header (2)',
      'footer (2)',
      'aside (2)',
      'other (3)',
    ]);
    expect(
      await page
        .locator('#links')
        .getByRole('link', { name: ctx.fixtures.url('/story/1') })
        .getAttribute('target'),
    ).toBe('_blank');
    expect(await page.locator('#images tbody tr').count()).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Screenshot' }).click();
    const image = page.locator('#screenshot-image');
    await expect(image.isVisible()).resolves.toBe(true);
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('#screenshot-size').textContent()).toMatch(/^image\/png, \d+ × \d+ px/);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, 'views');
    await page.context().close();
  });

  it('runs no script of a hostile page, neither in the rendered markdown nor in the preview', async () => {
    const { page } = await openPlayground();
    await page.evaluate('window.pwned = false');
    for (const format of ['markdown', 'html'] as const) {
      await fetchThroughForm(page, `${hostile.origin}/hostile.html`, format);
      expect(await page.evaluate<boolean>('window.pwned'), format).toBe(false);
    }
    // Still the last (html) result: the frame shows the page, untouched by its own scripts.
    const preview = page.frameLocator('#preview-frame');
    expect(await preview.locator('h1').textContent()).toBe('Hostile');
    expect(await preview.locator('html').getAttribute('data-ran')).toBeNull();

    await fetchThroughForm(page, `${hostile.origin}/hostile.html`, 'markdown');
    const rendered = page.locator('#view-rendered');
    expect(await rendered.locator('h1').textContent()).toBe('Hostile');
    expect(await rendered.locator('script, iframe, img, [onerror], [onclick], a[href^="javascript:"]').count()).toBe(0);
    // Markup written as text in the page stays text.
    expect(await rendered.textContent()).toContain('<img src=x onerror=top.pwned=true>');
    expect(await page.evaluate<boolean>('window.pwned')).toBe(false);
    await page.context().close();
  });

  it('shows a raw markdown answer rendered, with the page status taken from X-Page-Status', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel(/raw/).check();
    await fetchThroughForm(page, ctx.fixtures.url('/status/404'), 'markdown');
    expect(await page.locator('#view-rendered h1').textContent()).toBe('Target says not found');
    expect((await page.locator('#summary dd').allTextContents()).slice(0, 2)).toEqual(['200', '404']);
    expect(await page.locator('#page-headers td').allTextContents()).toEqual(['not included with raw: true']);
    expect(await page.locator('#curl').textContent()).toContain('"raw":true');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('sends wait_for_selector, scroll, consent and the selector lists (one per line) and shows the parts asked for', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel('Wait for selector').fill('article');
    await page.getByLabel(/scroll/).check();
    await page.getByLabel(/consent: "keep"/).check();
    await page.getByLabel('Only these parts').fill('h1\n\n.body\n');
    await page.getByLabel('Leave out').fill('.quote');
    await fetchThroughForm(page, ctx.fixtures.url('/pages/selectors.html'), 'markdown');
    expect(await page.locator('#view-rendered h1').allTextContents()).toEqual(['Selector page']);
    expect(await page.locator('#view-rendered p').allTextContents()).toEqual(['Body paragraph.']);
    const curl = (await page.locator('#curl').textContent()) ?? '';
    for (const field of [
      '"wait_for_selector":"article"',
      '"scroll":true',
      '"include_selectors":["h1",".body"]',
      '"exclude_selectors":[".quote"]',
      '"consent":"keep"',
    ]) {
      expect(curl).toContain(field);
    }
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('sends device, viewport, headers and cookies, and shows the personal request as a BYPASS', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel('Device', { exact: true }).selectOption('mobile');
    await page.getByLabel('Viewport width').fill('412');
    await page.getByLabel('Viewport height').fill('915');
    await page.getByLabel('Request headers').fill('X-Playground: yes\nAccept-Language: de-CH');
    await page.getByLabel('Cookies', { exact: true }).fill('session=abc=1\n');
    await fetchThroughForm(page, ctx.fixtures.url('/visit/probe?playground=visit'), 'html');
    const cacheCell = page.locator('#summary dt', { hasText: /^Cache$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await cacheCell.textContent()).toBe('BYPASS');
    const curl = (await page.locator('#curl').textContent()) ?? '';
    for (const field of [
      '"device":"mobile"',
      '"viewport":{"width":412,"height":915}',
      '"headers":{"X-Playground":"yes","Accept-Language":"de-CH"}',
      '"cookies":[{"name":"session","value":"abc=1"}]',
    ]) {
      expect(curl).toContain(field);
    }
    const [probe] = ctx.fixtures.requests.filter((request) => request.path.includes('playground=visit'));
    expect(probe?.headers['x-playground']).toBe('yes');
    expect(probe?.headers.cookie).toBe('session=abc=1');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('sends max_age and shows a stored render as a HIT with its age', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel('Max age (s)').fill('600');
    const target = ctx.fixtures.url('/pages/article.html?playground=max-age');
    await fetchThroughForm(page, target, 'markdown');
    const cacheCell = page.locator('#summary dt', { hasText: /^Cache$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await cacheCell.textContent()).toBe('MISS');
    expect(await page.locator('#curl').textContent()).toContain('"max_age":600');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the render is stored after the answer
    await fetchThroughForm(page, target, 'markdown');
    expect(await cacheCell.textContent()).toMatch(/^HIT, [01] s old$/);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('shows the page metadata when include_metadata is checked, null where the page says nothing', async () => {
    const { page, consoleErrors } = await openPlayground();
    await page.getByLabel(/include_metadata/).check();
    await fetchThroughForm(page, ctx.fixtures.url('/pages/article.html'), 'markdown');
    const rows = await page
      .locator('#metadata tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.cells[0]?.textContent, tr.cells[1]?.textContent]));
    expect(rows).toEqual([
      ['title', 'Article'],
      ['description', 'null'],
      ['language', 'en'],
      ['canonical_url', 'null'],
      ['site_name', 'null'],
      ['author', 'null'],
      ['published_time', 'null'],
      ['image', 'null'],
    ]);
    expect(await page.locator('#metadata-panel').isVisible()).toBe(true);
    expect(await page.locator('#curl').textContent()).toContain('"include_metadata":true');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('shows the API error code and message, and keeps the token only when asked to', async () => {
    const { page } = await openPlayground();
    await page.getByLabel('Keep it for this tab (sessionStorage)').check();
    await page.getByLabel('API token').fill('not-a-valid-token');
    await page.getByLabel('URL', { exact: true }).fill(ctx.fixtures.url('/pages/article.html'));
    await page.getByRole('button', { name: 'Fetch' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('strong').textContent()).toBe('401 unauthorized');
    expect(await page.locator('#content').isVisible()).toBe(false);
    expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual(['not-a-valid-token']);
    await page.reload();
    expect(await page.getByLabel('API token').inputValue()).toBe('not-a-valid-token');
    await page.context().close();
  });
});

describe('crawling through the playground', () => {
  async function openCrawlTab(): Promise<{ page: Page; consoleErrors: string[] }> {
    const opened = await openPlayground();
    expect((await fetch(`${ctx.worker.origin}/playground/crawl.js`)).headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    await opened.page.getByLabel('API token').fill(TEST_TOKEN);
    await opened.page.getByRole('tab', { name: 'Crawl a site' }).click();
    expect(await opened.page.locator('#fetch-form').isVisible()).toBe(false);
    for (const label of ['Site URL', 'Page limit', 'Max depth', 'Page format']) {
      await expect(opened.page.getByLabel(label, { exact: true }).count(), label).resolves.toBe(1);
    }
    await expect(opened.page.getByLabel(/Main content only/).isChecked()).resolves.toBe(false);
    return opened;
  }

  const summaryOf = (page: Page) =>
    page
      .locator('#crawl-summary div')
      .evaluateAll((items) => Object.fromEntries(items.map((item) => [item.children[0]?.textContent, item.children[1]?.textContent])));

  it('starts a crawl and shows its pages as they are decided, with the job status and counts, each page content as text', async () => {
    const { page, consoleErrors } = await openCrawlTab();
    await page.getByLabel('Site URL').fill(ctx.fixtures.url('/site/'));
    await page.getByLabel('Page limit').fill('4');
    await page.getByLabel('Max depth').fill('1');
    await page.getByLabel('Page format').selectOption('markdown');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.getByRole('status').filter({ hasText: 'Crawl completed.' }).waitFor({ timeout: 90_000 });

    const summary = await summaryOf(page);
    expect(summary).toMatchObject({ Status: 'completed', queued: '0' });
    expect(Number(summary.fetched)).toBeGreaterThanOrEqual(1);
    expect(Number(summary.fetched) + Number(summary.failed)).toBeLessThanOrEqual(4);
    const rows = page.locator('#crawl-pages tbody tr');
    // One row per record: every state the counts give but `queued`.
    const decided = ['fetched', 'failed', 'blocked', 'skipped', 'disallowed'];
    expect(await rows.count()).toBe(decided.reduce((sum, state) => sum + Number(summary[state]), 0));
    const startUrl = ctx.fixtures.url('/site/');
    const start = rows.filter({ has: page.locator('summary', { hasText: new RegExp(`^${startUrl.replace(/[.?]/g, '\\$&')}$`) }) });
    expect(await start.count()).toBe(1);
    expect((await start.locator('td').allTextContents()).slice(1)).toEqual(['fetched', '0', '200']);
    await start.locator('summary').click();
    expect(await start.locator('pre').textContent()).toContain('# Site home');
    expect(await page.locator('#crawl-pages script').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel crawl' }).isDisabled()).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('cancels a crawl under way, and shows a refused crawl with the API error naming the field', async () => {
    const { page, consoleErrors } = await openCrawlTab();
    await page.getByLabel('Site URL').fill(ctx.fixtures.url('/slow-doc?ms=8000'));
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.locator('#crawl-summary dd', { hasText: /^(queued|running)$/ }).waitFor();
    await page.getByRole('button', { name: 'Cancel crawl' }).click();
    await page.getByRole('status').filter({ hasText: 'Crawl cancelled.' }).waitFor({ timeout: 60_000 });
    expect(await summaryOf(page)).toMatchObject({ Status: 'cancelled' });
    expect(consoleErrors).toEqual([]);

    await page.getByLabel('Max depth').fill('101');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('strong').textContent()).toBe('400 invalid_request');
    expect(await alert.textContent()).toContain('max_depth');
    await page.context().close();
  });
});
