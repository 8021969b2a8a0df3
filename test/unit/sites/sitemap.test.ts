import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap, sitemapText } from '../../../src/sites/sitemap.js';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc> https://example.com/a </loc><lastmod>2024-01-01</lastmod></url>
  <url><loc>https://example.com/b?x=1&amp;y=2</loc><news:news><news:title>Bee &amp; co</news:title></news:news></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`;

const INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/s1.xml</loc></sitemap>
  <sitemap><loc>https://example.com/s2.xml.gz</loc></sitemap>
</sitemapindex>`;

describe('parseSitemap', () => {
  it('reads a urlset: each loc once, entities decoded, a news title where given', () => {
    expect(parseSitemap(URLSET)).toEqual({
      kind: 'urlset',
      entries: [{ url: 'https://example.com/a' }, { url: 'https://example.com/b?x=1&y=2', title: 'Bee & co' }],
    });
  });

  it('reads a urlset of one url', () => {
    expect(parseSitemap('<urlset><url><loc>https://example.com/only</loc></url></urlset>')).toEqual({
      kind: 'urlset',
      entries: [{ url: 'https://example.com/only' }],
    });
  });

  it('reads a sitemap index', () => {
    expect(parseSitemap(INDEX)).toEqual({ kind: 'index', sitemaps: ['https://example.com/s1.xml', 'https://example.com/s2.xml.gz'] });
  });

  it('is unknown for what is neither', () => {
    expect(parseSitemap('<html><body>Not found</body></html>')).toEqual({ kind: 'unknown' });
    expect(parseSitemap('not xml at all')).toEqual({ kind: 'unknown' });
  });
});

describe('sitemapText', () => {
  it('reads plain bytes as they are', async () => {
    expect(await sitemapText(new TextEncoder().encode(URLSET))).toBe(URLSET);
  });

  it('gunzips gzip bytes whatever the name says', async () => {
    expect(await sitemapText(new Uint8Array(gzipSync(URLSET)))).toBe(URLSET);
  });

  it('stops reading past its bound: a gzip bomb is not a sitemap', async () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(2 * 1024 * 1024, 'a')));
    expect(await sitemapText(bomb, 1024 * 1024)).toBeUndefined();
  });

  it('is undefined for a broken gzip stream', async () => {
    const broken = new Uint8Array(gzipSync(URLSET)).subarray(0, 20);
    expect(await sitemapText(broken)).toBeUndefined();
  });
});
