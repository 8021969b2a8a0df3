// Selecting parts (docs/api.md "Selecting parts"): include_selectors and exclude_selectors in both
// formats, through open shadow roots, X-Selector-Matches, with only_main_content, and every invalid
// form, against the real Worker, Browser Rendering emulation and Chromium.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

async function fetchPart(body: object) {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/pages/selectors.html'), ...body });
  const json = (await response.json()) as { data: string; error?: { code: string; details?: { field: string }[] } };
  return { response, json, matches: response.headers.get('X-Selector-Matches') };
}

describe('exclude_selectors', () => {
  it('leaves out what they match, with all inside it, in markdown, shadow roots included', async () => {
    const { json, matches } = await fetchPart({ output_format: 'markdown', exclude_selectors: ['.ad', 'footer'] });
    for (const kept of ['# Selector page', '## Story heading', 'Body paragraph.', 'Shadow paragraph']) expect(json.data).toContain(kept);
    for (const gone of ['Advertisement text', 'Footer text', 'Shadow ad']) expect(json.data).not.toContain(gone);
    expect(matches).toBeNull();
  });

  it('leaves out what they match in html, which stays the whole document otherwise', async () => {
    const { json } = await fetchPart({ exclude_selectors: ['.ad', 'footer'] });
    expect(json.data.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(json.data).toContain('<h2>Story heading</h2>');
    expect(json.data).toContain(
      '<shadow-box><template shadowrootmode="open"><p class="in-shadow">Shadow paragraph</p></template></shadow-box>',
    );
    for (const gone of ['Advertisement text', 'Footer text', 'Shadow ad', '<aside', '<footer']) expect(json.data).not.toContain(gone);
  });
});

describe('html written by the selection', () => {
  // Our walk writes the document (it must leave excluded elements out without touching the DOM): with
  // nothing excluded it writes what the browser's own serializer writes.
  it.each([
    '/pages/selectors.html',
    '/pages/main-article.html',
    '/pages/reader-view.html',
    '/reader/trusted-types',
    '/pages/hostile-prototypes.html',
  ])('is byte for byte the html of the whole page when nothing is excluded (%s)', async (path) => {
    const url = ctx.fixtures.url(path);
    const whole = await (await ctx.worker.fetchPage({ url, raw: true })).text();
    const selected = await (await ctx.worker.fetchPage({ url, raw: true, exclude_selectors: ['.no-such-part'] })).text();
    expect(selected).toBe(whole);
  });
});

describe('include_selectors', () => {
  it('keeps only what they match, in document order, and counts the matches', async () => {
    const { json, matches } = await fetchPart({ output_format: 'markdown', include_selectors: ['.body', 'h1'] });
    expect(json.data).toBe('# Selector page\n\nBody paragraph.\n\nQuoted body paragraph.\n');
    expect(matches).toBe('3');
  });

  it('writes a match inside another match once, inside it, and counts both', async () => {
    const { json, matches } = await fetchPart({ output_format: 'markdown', include_selectors: ['article', '.lead'] });
    expect(json.data.match(/Lead paragraph/g)).toHaveLength(1);
    expect(json.data).toContain('## Story heading');
    expect(json.data).not.toContain('Selector page');
    expect(matches).toBe('2');
  });

  it('finds matches in open shadow roots', async () => {
    const { json, matches } = await fetchPart({ output_format: 'markdown', include_selectors: ['.in-shadow'] });
    expect(json.data).toBe('Shadow paragraph\n');
    expect(matches).toBe('1');
  });

  it('applies exclusion first', async () => {
    const { json, matches } = await fetchPart({
      output_format: 'markdown',
      include_selectors: ['article', '.ad'],
      exclude_selectors: ['.ad'],
    });
    expect(json.data).toContain('Body paragraph.');
    expect(json.data).not.toContain('Advertisement text');
    expect(json.data).not.toContain('Shadow ad');
    // Counted as matched, though left out: X-Selector-Matches counts what the include selectors match.
    expect(matches).toBe('3');
  });

  it('answers html as the matches in a minimal document, links and images absolute', async () => {
    const { json, matches } = await fetchPart({ include_selectors: ['.lead'] });
    const origin = ctx.fixtures.origin;
    expect(json.data).toBe(
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Selector page</title></head><body>' +
        `<p class="lead">Lead paragraph with <a href="${origin}/rel/link">a relative link</a> and <img src="${origin}/img/pic.png" alt="Pic">.</p>` +
        '</body></html>',
    );
    expect(matches).toBe('1');
  });

  it('answers an empty markdown and an empty minimal document when nothing matches', async () => {
    const markdown = await fetchPart({ output_format: 'markdown', include_selectors: ['.no-such-part'] });
    expect(markdown.response.status).toBe(200);
    expect(markdown.json.data).toBe('');
    expect(markdown.matches).toBe('0');
    const html = await fetchPart({ include_selectors: ['.no-such-part'] });
    expect(html.json.data).toBe('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Selector page</title></head><body></body></html>');
    expect(html.matches).toBe('0');
  });

  it('sends X-Selector-Matches with a stored render', async () => {
    const body = {
      url: ctx.fixtures.url('/pages/selectors.html?cached=1'),
      output_format: 'markdown',
      include_selectors: ['.body'],
      max_age: 600,
    };
    expect((await ctx.worker.fetchPage(body)).headers.get('X-Selector-Matches')).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the render is stored after the answer
    const hit = await ctx.worker.fetchPage(body);
    expect(hit.headers.get('X-Cache')).toBe('HIT');
    expect(hit.headers.get('X-Selector-Matches')).toBe('2');
  });

  it('sends X-Selector-Matches with raw answers too', async () => {
    const { response } = await ctx.worker
      .fetchPage({ url: ctx.fixtures.url('/pages/selectors.html'), output_format: 'markdown', raw: true, include_selectors: ['p'] })
      .then(async (r) => ({ response: r, text: await r.text() }));
    expect(response.headers.get('X-Selector-Matches')).toBe('4');
  });
});

describe('with only_main_content', () => {
  it('takes the main content from what the selectors left', async () => {
    const url = ctx.fixtures.url('/pages/main-article.html');
    const whole = await ctx.worker.fetchPage({ url, output_format: 'markdown', only_main_content: true });
    expect(((await whole.json()) as { data: string }).data).toContain('Visit an hour before low tide');
    const response = await ctx.worker.fetchPage({
      url,
      output_format: 'markdown',
      only_main_content: true,
      exclude_selectors: ['article p:nth-of-type(6)'],
    });
    const { data } = (await response.json()) as { data: string };
    expect(response.headers.get('X-Content-Mode')).toBe('main');
    expect(data).toContain('Tide pools form where the sea leaves water behind');
    expect(data).not.toContain('Visit an hour before low tide');
  });
});

describe('invalid selectors', () => {
  const targetRequests = (path: string) => ctx.fixtures.requests.filter((request) => request.path === path).length;

  it.each([
    ['not a list', { include_selectors: '.body' }, ['include_selectors']],
    ['a list of numbers', { exclude_selectors: [1] }, ['exclude_selectors[0]']],
    ['an empty selector', { include_selectors: ['h1', ''] }, ['include_selectors[1]']],
    ['white space only', { exclude_selectors: ['  '] }, ['exclude_selectors[0]']],
    ['not selector syntax', { include_selectors: ['h1', 'p', 'div;p'] }, ['include_selectors[2]']],
    ['a selector over 1024 characters', { exclude_selectors: [`#${'a'.repeat(1024)}`] }, ['exclude_selectors[0]']],
    ['more than 20 selectors', { include_selectors: Array.from({ length: 21 }, () => 'p') }, ['include_selectors']],
    [
      'bad ones in both lists',
      { include_selectors: ['{'], exclude_selectors: ['p', ',a'] },
      ['include_selectors[0]', 'exclude_selectors[1]'],
    ],
    ['a pseudo-class Chromium does not know', { exclude_selectors: ['p', 'p:no-such-state'] }, ['exclude_selectors[1]']],
    [
      'selectors only Chromium refuses, in both lists',
      { include_selectors: ['> p'], exclude_selectors: ['a >> b'] },
      ['include_selectors[0]', 'exclude_selectors[0]'],
    ],
  ])('answers 400 naming the field and its index for %s, before the target is loaded', async (name, fields, failing) => {
    const path = `/echo?id=selectors-${encodeURIComponent(name)}`;
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), ...fields });
    const json = (await response.json()) as { error?: { code: string; details?: { field: string }[] } };
    expect(response.status).toBe(400);
    expect(json.error?.code).toBe('invalid_request');
    expect(json.error?.details?.map((detail) => detail.field)).toEqual(failing);
    expect(targetRequests(path)).toBe(0);
  });
});
