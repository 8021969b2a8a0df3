import { describe, expect, it } from 'vitest';
import { pageLinks } from '../../../src/sites/page-links.js';

describe('pageLinks', () => {
  it('gives each http(s) link once, absolute, in document order, with its first text', () => {
    const html = `<html><head><link rel="canonical" href="/canon"></head><body>
      <a href="/a">First  A</a><a href="b">B</a><a href="/a">Again</a>
      <a href="mailto:x@e.com">mail</a><a href="javascript:void 0">js</a>
      <a href="https://other.com/x#frag"><img alt="x"></a><a href="/icon" aria-label="Icon"></a></body></html>`;
    expect(pageLinks(html, 'https://e.com/dir/page')).toEqual({
      links: [
        { url: 'https://e.com/a', text: 'First A' },
        { url: 'https://e.com/dir/b', text: 'B' },
        { url: 'https://other.com/x#frag' },
        { url: 'https://e.com/icon', text: 'Icon' },
      ],
      canonical: 'https://e.com/canon',
    });
  });

  it('resolves against the base href', () => {
    expect(pageLinks('<base href="https://e.com/base/"><a href="x">X</a>', 'https://e.com/').links).toEqual([
      { url: 'https://e.com/base/x', text: 'X' },
    ]);
  });
});
