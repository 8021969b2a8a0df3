// Response shapes of docs/api.md "Responses" against the real stack: JSON and raw bodies, the page's own
// status and headers after redirects, and the headers every fetch response carries.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

interface FetchJson {
  data: string;
  status: number;
  headers: Record<string, string>;
}

async function fetchJson(body: object): Promise<{ response: Response; json: FetchJson }> {
  const response = await ctx.worker.fetchPage(body);
  expect(response.status).toBe(200);
  return { response, json: (await response.json()) as FetchJson };
}

describe('JSON responses', () => {
  it('has exactly data, status and headers, with the documented headers on the response', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/pages/article.html'), wait_event: 'load' });
    expect(Object.keys(json).sort()).toEqual(['data', 'headers', 'status']);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(json.data.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('X-Final-Url')).toBe(ctx.fixtures.url('/pages/article.html'));
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(response.headers.get('X-Page-Status')).toBe('200');
    expect(response.headers.get('Server-Timing')).toMatch(
      /^queue;dur=[\d.]+, acquire;dur=[\d.]+, navigate;dur=[\d.]+, wait;dur=[\d.]+, serialize;dur=[\d.]+, convert;dur=[\d.]+$/,
    );
  });

  it('reports the final status, headers and URL after a redirect chain', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/redirect/1'), wait_event: 'load' });
    expect(json.status).toBe(200);
    expect(json.headers['x-fixture']).toBe('final-hop');
    expect(json.data).toContain('Redirect target');
    expect(response.headers.get('X-Final-Url')).toBe(ctx.fixtures.url('/redirect/final?from=chain'));
  });

  it.each([
    [404, 'Target says not found'],
    [500, 'Target says server error'],
  ])('answers 200 with the target status %i as data', async (status, text) => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url(`/status/${status}`), wait_event: 'load' });
    expect(json.status).toBe(status);
    expect(json.data).toContain(text);
    expect(response.headers.get('X-Page-Status')).toBe(String(status));
  });

  it.each([
    [404, '/status/404-empty'],
    [500, '/status/500-empty'],
    [204, '/status/204'],
  ])(
    "answers a target's status %i with no body as an empty page with that status, not as an error or Chrome's error page",
    async (status, path) => {
      const url = ctx.fixtures.url(path);
      const html = await fetchJson({ url, wait_event: 'networkIdle', include_metadata: true });
      expect(html.json.status).toBe(status);
      expect(html.json.data).toBe('<html><head></head><body></body></html>');
      expect((html.json as FetchJson & { metadata: object }).metadata).toEqual({
        title: null,
        description: null,
        language: null,
        canonical_url: null,
        site_name: null,
        author: null,
        published_time: null,
        image: null,
      });
      expect(html.response.headers.get('X-Page-Status')).toBe(String(status));
      expect(html.response.headers.get('X-Final-Url')).toBe(url);
      expect(html.response.headers.get('X-Wait-Result')).toBe('event');
      const markdown = await fetchJson({ url, wait_event: 'load', output_format: 'markdown', only_main_content: true });
      expect(markdown.json.status).toBe(status);
      expect(markdown.json.data).toBe('');
      expect(markdown.response.headers.get('X-Content-Mode')).toBe('full');
    },
  );

  it('renders a text/plain target: the DOM for html, the text itself for markdown', async () => {
    const url = ctx.fixtures.url('/text.txt');
    const html = await fetchJson({ url, wait_event: 'load' });
    expect(html.json.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(html.json.data).toContain('<pre');
    const markdown = await fetchJson({ url, wait_event: 'load', output_format: 'markdown' });
    expect(markdown.json.data).toBe('Plain text line one\n# not a heading\n*not emphasis*\n');
  });

  it('renders a JSON target as a fenced json block in markdown', async () => {
    const { json } = await fetchJson({ url: ctx.fixtures.url('/data.json'), wait_event: 'load', output_format: 'markdown' });
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.data).toBe('```json\n{"name":"page-fetch","items":[1,2,3],"nested":{"ok":true}}\n```\n');
  });
});

describe('include_metadata', () => {
  it('adds the page metadata from Open Graph, JSON-LD, meta tags and <html lang>, URLs absolute', async () => {
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/pages/metadata.html'),
      include_metadata: true,
      wait_event: 'load',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { metadata: unknown };
    expect(body.metadata).toEqual({
      title: 'Story title',
      description: 'The story, told for sharing.',
      language: 'fr-CA',
      canonical_url: 'https://news.example/stories/42',
      site_name: 'The Daily Fixture',
      author: 'Ada Byline, Ben Byline',
      published_time: '2026-11-20T08:30:00Z',
      image: ctx.fixtures.url('/media/lede.jpg'),
    });
  });

  const metadataOf = async (path: string) => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), include_metadata: true, wait_event: 'load' });
    return ((await response.json()) as { metadata: Record<string, string | null> }).metadata;
  };

  it('takes the JSON-LD name for the title when only the name, not the headline, is in <title>', async () => {
    expect((await metadataOf('/pages/data-table.html')).title).toBe('List of films featuring loops');
  });

  it('skips an author that is a profile link for the next source that names one', async () => {
    expect((await metadataOf('/pages/data-table.html')).author).toBe('@fixture_editors');
  });

  it('gives null for what a page does not say, and the title from <title>', async () => {
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/pages/article.html'),
      output_format: 'markdown',
      include_metadata: true,
      wait_event: 'load',
    });
    expect(((await response.json()) as { metadata: unknown }).metadata).toEqual({
      title: 'Article',
      description: null,
      language: 'en',
      canonical_url: null,
      site_name: null,
      author: null,
      published_time: null,
      image: null,
    });
  });

  it('is left out of a raw answer, which is the content alone', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/metadata.html'), include_metadata: true, raw: true });
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toMatch(/^<!DOCTYPE html><html lang="fr-CA">/);
  });
});

describe('raw responses', () => {
  it('returns raw html as text/html with the page status in X-Page-Status', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/status/404'), wait_event: 'load', raw: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('X-Page-Status')).toBe('404');
    const body = await response.text();
    expect(body.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(body).toContain('Target says not found');
  });

  it('returns raw markdown as text/plain', async () => {
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/pages/article.html'),
      wait_event: 'load',
      raw: true,
      output_format: 'markdown',
    });
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('X-Final-Url')).toBe(ctx.fixtures.url('/pages/article.html'));
    expect(await response.text()).toContain('# An article');
  });
});

describe('markdown of a rendered page', () => {
  it('gives GFM with absolute links and no script or style text', async () => {
    const { json } = await fetchJson({ url: ctx.fixtures.url('/pages/article.html'), wait_event: 'load', output_format: 'markdown' });
    expect(json.data).toContain('# An article');
    expect(json.data).toContain(`[relative link](${ctx.fixtures.url('/pages/other.html')})`);
    expect(json.data).toContain(`![A picture](${ctx.fixtures.url('/images/pic.png')})`);
    expect(json.data).toContain('```js\nconst x = 1;\n  console.log(x);\n```');
    expect(json.data).toMatch(/\| a +\| b +\|/);
    expect(json.data).not.toContain('must not appear');
    expect(json.data).not.toContain('font-family');
  });
});

describe('large pages', () => {
  it('returns a 3 MB page whole', async () => {
    const { json } = await fetchJson({ url: ctx.fixtures.url('/big?bytes=3000000'), wait_event: 'load' });
    expect(json.data.length).toBeGreaterThan(3_000_000);
    expect(json.data).toContain('end of big page');
  });

  it('reads a page of ~6 million characters CDP escapes (36 MB on the wire) in slices, and a request on the same browser meanwhile is unharmed', async () => {
    const [big, other] = await Promise.all([
      // A budget the 6 MB page's load fits in on a busy machine (the default 5 s did not once in CI;
      // 30 s was nearly all used with two busy loops per core): the test is about reading the whole
      // page, not about the budget.
      fetchJson({ url: ctx.fixtures.url('/big-escapes'), wait_event: 'load', wait_ms: 60_000 }),
      fetchJson({ url: ctx.fixtures.url('/pages/article.html'), wait_event: 'load' }),
    ]);
    expect(big.response.status).toBe(200);
    expect(big.response.headers.get('X-Wait-Result')).toBe('event');
    expect(big.json.data.length).toBeGreaterThan(6_000_000);
    expect(big.json.data).toContain('жжжжж\u0007');
    expect(big.json.data).toContain('end of the escapes');
    expect(other.response.status).toBe(200);
    // And the browser still serves the next request.
    const after = await fetchJson({ url: ctx.fixtures.url('/pages/article.html'), wait_event: 'load' });
    expect(after.response.status).toBe(200);
  }, 150_000);

  it('answers 502 content_too_large for a page over MAX_CONTENT_BYTES', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/big?bytes=11000000'), wait_event: 'load' });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('content_too_large');
  });

  // Each kind of read runs its own in-page script, which stops copying the page once it is too large.
  it.each([
    ['markdown', {}],
    ['markdown of the main content', { only_main_content: true }],
    ['html of the main content', { output_format: 'html', only_main_content: true }],
  ])('answers 502 content_too_large for %s of a page over MAX_CONTENT_BYTES', async (_read, fields) => {
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/big?bytes=11000000'),
      wait_event: 'load',
      output_format: 'markdown',
      ...fields,
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('content_too_large');
  });
});
