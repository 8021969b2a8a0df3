import { describe, expect, it } from 'vitest';
import { markdownLinks } from '../../../src/sites/markdown-links.js';

describe('markdownLinks', () => {
  it('gives link targets once, in order, without images', () => {
    const markdown =
      '# T\n\n[A](https://e.com/a) and ![pic](https://e.com/p.png) [B \\] x](https://e.com/b "t")\n\n- [A again](https://e.com/a)\n[mail](mailto:x@e.com)';
    expect(markdownLinks(markdown)).toEqual(['https://e.com/a', 'https://e.com/b']);
  });

  it('reads a link around an image as a link', () => {
    expect(markdownLinks('[![logo](https://e.com/l.png)](https://e.com/home)')).toEqual(['https://e.com/home']);
  });
});
