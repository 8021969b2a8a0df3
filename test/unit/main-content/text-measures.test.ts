// The two measures of text the main-content rules share (main-content/extract-dom.ts): how much text
// a node holds (visibleLength) and how long it reads as a line (lineLength), on documents parsed by
// linkedom. Type-checked with the in-page scripts (tsconfig.page.json): it needs the DOM's types.
import { parseHTML } from 'linkedom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  hasVisibleText,
  lineLength,
  normalized,
  shortElements,
  visibleLength,
  withoutSpace,
  writtenLength,
} from '../../../src/main-content/extract-dom';

const body = (markup: string) => parseHTML(`<!DOCTYPE html><html><body>${markup}</body></html>`).document.body as unknown as Element;

const INDENTED = '<div>\n    <p>\n      Kate  Henshaw,\n      <em>actor</em>\n    </p>\n  </div>';

describe('visibleLength', () => {
  it('counts every character of the text below, white space not at all', () => {
    expect(visibleLength(body(INDENTED))).toBe('KateHenshaw,actor'.length);
    expect(visibleLength(body('<p>a\u00a0b\tc</p>'))).toBe(3);
  });

  it('counts punctuation and marks, which are text', () => {
    expect(visibleLength(body('<p>« — » © 2020</p>'))).toBe(8);
  });
});

describe('hasVisibleText', () => {
  // The rules run in the page, where Node is a global; linkedom has its own.
  beforeEach(() => vi.stubGlobal('Node', parseHTML('').Node));
  afterEach(() => vi.unstubAllGlobals());

  it('answers as visibleLength > 0 does, on elements, text and comments', () => {
    const root = body(
      '<div id="a">\n  <span> </span><b><i></i></b>\n</div><div id="b"><span>\t</span><p><em> x</em></p></div><div id="c"><!-- note --></div><p id="d"></p>',
    );
    const nodes = [root, ...root.querySelectorAll('*'), ...[...root.querySelectorAll('*')].flatMap((el) => [...el.childNodes])];
    for (const node of nodes) expect(hasVisibleText(node)).toBe(visibleLength(node) > 0);
    expect(hasVisibleText(root.querySelector('#a')!)).toBe(false);
    expect(hasVisibleText(root.querySelector('#b')!)).toBe(true);
    expect(hasVisibleText(root.querySelector('#c')!.firstChild!)).toBe(true);
  });

  it('stops at the node: text after it does not count', () => {
    const root = body('<div><span id="empty"><i> </i></span>words after</div>');
    expect(hasVisibleText(root.querySelector('#empty')!)).toBe(false);
  });
});

describe('lineLength and normalized', () => {
  it('reads the text as one line: runs of white space one space, none at the ends', () => {
    expect(normalized(body(INDENTED))).toBe('Kate Henshaw, actor');
    expect(lineLength(body(INDENTED))).toBe('Kate Henshaw, actor'.length);
  });

  it('keeps the spaces between words, and every other character', () => {
    expect(lineLength(body('<p>Light a Wish by OGE Group</p>'))).toBe(25);
    expect(withoutSpace(' a \n\n b ')).toBe('ab');
  });
});

describe('writtenLength', () => {
  it('counts the white space the markup holds inside the text, none at its ends', () => {
    expect(writtenLength(body(INDENTED))).toBe('Kate  Henshaw,\n      actor'.length);
  });
});

describe('shortElements', () => {
  it('takes the elements with at most so much text, white space not counted', () => {
    // The rules run in the page, where Node is a global; linkedom has its own.
    vi.stubGlobal('Node', parseHTML('').Node);
    const root = body(`<section>${INDENTED}<p>${'x'.repeat(30)}</p></section>`);
    const short = shortElements(root, 'KateHenshaw,actor'.length);
    expect([...short].map((el) => el.localName).sort()).toEqual(['div', 'em', 'p']);
    expect(short.has(root.querySelector('section')!)).toBe(false);
    vi.unstubAllGlobals();
  });
});
