// include_links and include_images (docs/api.md "Links, images and screenshots") against the real
// Worker, Browser Rendering emulation and Chromium: every landmark, shadow-root and frame links, icon
// links and duplicates give the exact `links`; lazy, srcset, <picture>, tracker and data: images the
// exact `images`; both formats, with only_main_content and selectors, and the bad input.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

interface Answer {
  data: string;
  links?: unknown[];
  images?: unknown[];
  error?: { code: string; details?: { field: string }[] };
}

async function fetchJson(path: string, body: object): Promise<{ response: Response; json: Answer }> {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), wait_event: 'load', ...body });
  return { response, json: (await response.json()) as Answer };
}

describe('include_links', () => {
  it('lists every distinct link a reader sees once, in document order, with its text, region and whether it is internal', async () => {
    const { response, json } = await fetchJson('/views/links', { include_links: true });
    expect(response.status).toBe(200);
    const origin = ctx.fixtures.origin;
    const other = origin.replace('127.0.0.1', 'localhost');
    expect(json.links).toEqual([
      { url: `${origin}/`, text: 'Home', region: 'header', internal: true },
      { url: `${origin}/about`, text: 'About us', region: 'header', internal: true },
      { url: `${origin}/news`, text: 'News', region: 'navigation', internal: true },
      { url: `${origin}/guides#top`, text: 'Guides', region: 'navigation', internal: true },
      { url: `${origin}/by-role`, text: 'By role', region: 'navigation', internal: true },
      { url: `${origin}/story/1`, text: 'The first story', region: 'main', internal: true },
      { url: `${other}/elsewhere#part`, text: 'Elsewhere', region: 'main', internal: false },
      { url: `${origin}/shadow`, text: 'Shadow link', region: 'main', internal: true },
      { url: `${origin}/same-frame`, text: 'Same-origin frame link', region: 'other', internal: true },
      { url: `${other}/views/inner`, text: 'Frame link', region: 'other', internal: false },
      { url: `${other}/story/1`, text: 'Again in the frame', region: 'other', internal: false },
      { url: `${origin}/aside`, text: 'Aside link', region: 'aside', internal: true },
      { url: `${origin}/left`, text: 'Left side', region: 'aside', internal: true },
      { url: `${origin}/terms`, text: 'Terms of use', region: 'footer', internal: true },
      { url: `${origin}/empty`, text: '', region: 'footer', internal: true },
    ]);
    expect(json).not.toHaveProperty('images');
  });

  it('gives the same list with markdown output, and leaves the content as it is without the option', async () => {
    const html = await fetchJson('/views/links', { include_links: true });
    const markdown = await fetchJson('/views/links', { include_links: true, output_format: 'markdown' });
    expect(markdown.json.links).toEqual(html.json.links);
    const plain = await fetchJson('/views/links', { output_format: 'markdown' });
    expect(markdown.json.data).toBe(plain.json.data);
    expect(plain.json).not.toHaveProperty('links');
  });

  it('is narrowed by the selectors as the content is', async () => {
    const { json } = await fetchJson('/views/links', { include_links: true, include_selectors: ['nav'] });
    expect((json.links as { url: string }[]).map((link) => new URL(link.url).pathname)).toEqual(['/news', '/guides']);
  });

  it('keeps the main content html free of its marks with only_main_content', async () => {
    const { response, json } = await fetchJson('/views/links', { include_links: true, include_images: true, only_main_content: true });
    expect(response.headers.get('X-Content-Mode')).toBe('main');
    expect(json.data).not.toContain('data-page-fetch');
    expect((json.links as { region: string }[]).filter((link) => link.region === 'main')).toHaveLength(3);
  });

  it('is ignored with raw', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/views/links'), include_links: true, raw: true });
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<nav>');
  });
});

describe('include_images', () => {
  it('lists every distinct image a reader sees by the URL the browser uses, with its rendered size', async () => {
    const { json } = await fetchJson('/views/images', { include_images: true });
    const pic = (query: string) => `${ctx.fixtures.origin}/views/pic.svg?${query}`;
    expect(json.images).toEqual([
      { url: pic('logo'), alt: 'Logo', width: 40, height: 20, region: 'header' },
      { url: pic('plain'), alt: 'Plain', width: 100, height: 50, region: 'other' },
      { url: pic('lazy'), alt: 'Lazy', width: 80, height: 40, region: 'other' },
      { url: pic('large'), alt: 'Srcset', width: 400, height: 200, region: 'other' },
      { url: pic('picked'), alt: 'Picture', width: 120, height: 60, region: 'other' },
      { url: pic('below'), alt: 'Below the fold', width: 60, height: 60, region: 'other' },
    ]);
    expect(json).not.toHaveProperty('links');
  });

  it('answers empty lists for a page that shows no link and no image, in markdown and html', async () => {
    for (const output_format of ['markdown', 'html']) {
      const { json } = await fetchJson('/views/boxes', { output_format, include_images: true, include_links: true });
      expect(json.images).toEqual([]);
      expect(json.links).toEqual([]);
    }
  });

  it('answers an empty list for a document without a DOM of its own', async () => {
    const { json } = await fetchJson('/data.json', { include_images: true, include_links: true });
    expect(json.images).toEqual([]);
    expect(json.links).toEqual([]);
  });
});

describe('the cache', () => {
  it('answers links and images as stored on a HIT, and keys them apart from a request without them', async () => {
    const body = { include_links: true, include_images: true, max_age: 600 };
    const first = await fetchJson('/views/links?cache=1', body);
    const second = await fetchJson('/views/links?cache=1', body);
    expect(first.response.headers.get('X-Cache')).toBe('MISS');
    expect(second.response.headers.get('X-Cache')).toBe('HIT');
    expect(second.json.links).toEqual(first.json.links);
    expect(second.json.images).toEqual(first.json.images);
    const without = await fetchJson('/views/links?cache=1', { max_age: 600 });
    expect(without.response.headers.get('X-Cache')).toBe('MISS');
    expect(without.json).not.toHaveProperty('links');
  });
});

describe('bad input', () => {
  it.each(['include_links', 'include_images'])('%s must be a boolean', async (field) => {
    const { response, json } = await fetchJson('/views/links', { [field]: 'yes' });
    expect(response.status).toBe(400);
    expect(json.error?.code).toBe('invalid_request');
    expect(json.error?.details?.map((detail) => detail.field)).toEqual([field]);
  });
});
