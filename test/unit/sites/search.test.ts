import { describe, expect, it } from 'vitest';
import { searchLinks } from '../../../src/sites/search.js';

describe('searchLinks', () => {
  const entries = [
    { url: 'https://e.com/blog/hello' },
    { url: 'https://e.com/docs/api', title: 'Reference' },
    { url: 'https://e.com/docs/guide', title: 'API guide' },
    { url: 'https://e.com/about' },
  ];

  it('keeps what holds a word, most words first, ties in discovery order', () => {
    expect(searchLinks(entries, 'API docs').map((entry) => entry.url)).toEqual(['https://e.com/docs/api', 'https://e.com/docs/guide']);
    expect(searchLinks(entries, 'reference hello').map((entry) => entry.url)).toEqual([
      'https://e.com/blog/hello',
      'https://e.com/docs/api',
    ]);
  });

  it('keeps everything for a blank search', () => {
    expect(searchLinks(entries, '  ')).toEqual(entries);
  });
});
