// Which URL an image is written with (src/markdown/image-source.ts): the lazy loaders' attributes,
// read in the serializer's order on a parsed document and in the reader form's order in a rendered page.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { DomElement } from '../../../src/markdown/dom.js';
import { lazySource, type RenderedImage, renderedImageSource, writtenImageSource } from '../../../src/markdown/image-source.js';

const img = (attributes: string): DomElement =>
  parseHTML(`<html><body><img ${attributes}></body></html>`).document.querySelector('img') as unknown as DomElement;

const BASE = 'https://example.com/docs/page.html';

/** An image as the browser shows it: its attributes, and what the browser resolved (`src`) and chose (`currentSrc`). */
function rendered(attributes: string, currentSrc = ''): RenderedImage {
  const el = img(attributes);
  const raw = el.getAttribute('src');
  return {
    nodeType: 1,
    localName: 'img',
    parentNode: null,
    firstChild: null,
    nextSibling: null,
    previousSibling: null,
    getAttribute: (name: string) => el.getAttribute(name),
    hasAttribute: (name: string) => el.hasAttribute(name),
    currentSrc,
    src: raw === null ? '' : new URL(raw, BASE).href,
    baseURI: BASE,
  };
}

const PLACEHOLDER = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

describe('lazySource', () => {
  it('reads data-src, data-lazy-src and data-original, in that order, trimmed', () => {
    expect(lazySource(img('data-original="c.jpg" data-lazy-src="b.jpg" data-src=" a.jpg "'))).toBe('a.jpg');
    expect(lazySource(img('data-original="c.jpg" data-lazy-src="b.jpg"'))).toBe('b.jpg');
    expect(lazySource(img('data-original="c.jpg"'))).toBe('c.jpg');
  });

  it('passes over an empty attribute and a data: placeholder to the next', () => {
    expect(lazySource(img(`data-src="  " data-lazy-src="${PLACEHOLDER}" data-original="real.jpg"`))).toBe('real.jpg');
    expect(lazySource(img(`data-src=" DATA:image/gif;base64,AA"`))).toBeNull();
  });

  it('does not read src, srcset, data-srcset or other data attributes', () => {
    expect(lazySource(img('src="a.jpg" srcset="b.jpg 1x" data-srcset="c.jpg 1x" data-url="d.jpg" data-lazy="e.jpg"'))).toBeNull();
  });
});

describe('writtenImageSource (a parsed document)', () => {
  it('keeps a real src over a lazy attribute', () => {
    expect(writtenImageSource(img('src="low.jpg" data-src="high.jpg"'))).toBe('low.jpg');
  });

  it('takes the lazy attribute when src is missing or a data: placeholder', () => {
    expect(writtenImageSource(img(`src="${PLACEHOLDER}" data-src="/img/real.jpg"`))).toBe('/img/real.jpg');
    expect(writtenImageSource(img('data-lazy-src="lazy2.png"'))).toBe('lazy2.png');
  });

  it('falls back to the first candidate of srcset, then of data-srcset', () => {
    expect(writtenImageSource(img('srcset="/small.jpg 480w, /large.jpg 1080w" data-srcset="/other.jpg 1x"'))).toBe('/small.jpg');
    expect(writtenImageSource(img(`src="${PLACEHOLDER}" data-srcset="/a.jpg, /b.jpg 2x"`))).toBe('/a.jpg');
  });

  it('leaves a data: src alone when nothing else names a source, and never reads data-url', () => {
    expect(writtenImageSource(img(`src="${PLACEHOLDER}"`))).toBe(PLACEHOLDER);
    expect(writtenImageSource(img(`src="${PLACEHOLDER}" data-url="/page"`))).toBe(PLACEHOLDER);
    expect(writtenImageSource(img('alt="none"'))).toBe('');
  });
});

describe('renderedImageSource (the reader form in a rendered page)', () => {
  it('takes a lazy source the loader has not swapped in, resolved against the document', () => {
    expect(renderedImageSource(rendered('src="/spinner.gif" data-src="real.jpg"', 'https://example.com/spinner.gif'))).toBe(
      'https://example.com/docs/real.jpg',
    );
  });

  it('keeps the browser choice once the loader swapped the source in, with or without a query of its own', () => {
    const swapped = rendered('src="/img/a.jpg?w=800" data-src="/img/a.jpg" srcset="/img/a-2x.jpg 2x"', 'https://example.com/img/a-2x.jpg');
    expect(renderedImageSource(swapped)).toBe('https://example.com/img/a-2x.jpg');
  });

  it('takes currentSrc, else src, when no lazy attribute holds a URL', () => {
    expect(renderedImageSource(rendered('src="a.jpg" srcset="b.jpg 2x"', 'https://example.com/docs/b.jpg'))).toBe(
      'https://example.com/docs/b.jpg',
    );
    expect(renderedImageSource(rendered(`src="${PLACEHOLDER}"`, PLACEHOLDER))).toBe(PLACEHOLDER);
    expect(renderedImageSource(rendered('alt="no source"'))).toBeNull();
  });

  it('passes over lazy attributes that hold no URL, and never takes the page itself for an image', () => {
    expect(
      renderedImageSource(rendered(`src="a.jpg" data-src="${PLACEHOLDER}" data-original="b.jpg"`, 'https://example.com/docs/a.jpg')),
    ).toBe('https://example.com/docs/b.jpg');
    expect(renderedImageSource(rendered('src="a.jpg" data-src="  "', 'https://example.com/docs/a.jpg'))).toBe(
      'https://example.com/docs/a.jpg',
    );
  });

  it('does not take data-url or data-srcset over what the browser shows', () => {
    expect(renderedImageSource(rendered('src="a.jpg" data-url="/page" data-srcset="c.jpg 1x"', 'https://example.com/docs/a.jpg'))).toBe(
      'https://example.com/docs/a.jpg',
    );
  });
});
