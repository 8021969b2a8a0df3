import { describe, expect, it } from 'vitest';
import { compileGlob, pathFilter } from '../../../src/sites/path-glob.js';

const matches = (glob: string, url: string) => compileGlob(glob).test(new URL(url).pathname + new URL(url).search);

describe('globs', () => {
  it('`*` is any run of characters but a slash', () => {
    expect(matches('/docs/*', 'https://e.com/docs/intro')).toBe(true);
    expect(matches('/docs/*', 'https://e.com/docs/a/b')).toBe(false);
    expect(matches('/docs/*', 'https://e.com/docs/')).toBe(true);
  });

  it('`**` is any run of characters', () => {
    expect(matches('/docs/**', 'https://e.com/docs/a/b/c')).toBe(true);
    expect(matches('**/print', 'https://e.com/a/b/print')).toBe(true);
  });

  it('matches the whole path, not a part of it', () => {
    expect(matches('/docs', 'https://e.com/docs/intro')).toBe(false);
    expect(matches('/intro', 'https://e.com/docs/intro')).toBe(false);
  });

  it('sees the query after a `?` when there is one', () => {
    expect(matches('/search', 'https://e.com/search?q=1')).toBe(false);
    expect(matches('/search?*', 'https://e.com/search?q=1')).toBe(true);
    expect(matches('/search?q=1', 'https://e.com/search?q=1')).toBe(true);
    expect(matches('/search?*', 'https://e.com/search')).toBe(false);
  });

  it('takes every other character as itself', () => {
    expect(matches('/a.html', 'https://e.com/a.html')).toBe(true);
    expect(matches('/a.html', 'https://e.com/aXhtml')).toBe(false);
    expect(matches('/a+(b)', 'https://e.com/a+(b)')).toBe(true);
    expect(matches('/a?', 'https://e.com/ab')).toBe(false);
  });
});

describe('pathFilter', () => {
  it('lets everything in without include globs', () => {
    expect(pathFilter()(new URL('https://e.com/anything'))).toBe(true);
  });

  it('lets in only what an include glob matches, and exclude wins', () => {
    const filter = pathFilter(['/docs/**'], ['/docs/private/**']);
    expect(filter(new URL('https://e.com/docs/a'))).toBe(true);
    expect(filter(new URL('https://e.com/blog/a'))).toBe(false);
    expect(filter(new URL('https://e.com/docs/private/a'))).toBe(false);
  });
});
