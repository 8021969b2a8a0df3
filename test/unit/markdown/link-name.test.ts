// The name a link without text goes by (src/markdown/link-name.ts): the serializer's linkName on any
// DOM, and the iconName the reader form resolves in the page and hands on as the copy's aria-label.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { DomElement } from '../../../src/markdown/dom.js';
import { iconName, linkName, type TextById } from '../../../src/markdown/link-name.js';

const link = (markup: string, around = ''): DomElement =>
  parseHTML(`<html><body>${around}<a href="/x">${markup}</a></body></html>`).document.querySelector('a') as unknown as DomElement;

const withAttributes = (attributes: string, markup = '', around = ''): DomElement =>
  parseHTML(`<html><body>${around}<a href="/x" ${attributes}>${markup}</a></body></html>`).document.querySelector(
    'a',
  ) as unknown as DomElement;

const ICON = '<svg viewBox="0 0 1 1"><title>  Search\n the   site </title><path d="M0 0"/></svg>';

describe('linkName', () => {
  it('takes aria-label, then aria-labelledby, then an SVG title, then title', () => {
    const around = '<span id="l1">Labelled</span>';
    expect(linkName(withAttributes('aria-label=" Go\nhome " aria-labelledby="l1" title="T"', ICON, around))).toBe('Go home');
    expect(linkName(withAttributes('aria-labelledby="l1" title="T"', ICON, around))).toBe('Labelled');
    expect(linkName(withAttributes('title="T"', ICON))).toBe('Search the site');
    expect(linkName(withAttributes('title=" The\ttitle "'))).toBe('The title');
  });

  it("is not the link's own text, and '' when nothing names it", () => {
    expect(linkName(link('Home'))).toBe('');
    expect(linkName(link('<img src="logo.png" alt="">'))).toBe('');
  });

  it('passes over an aria-label of white space and ids that name nothing', () => {
    expect(linkName(withAttributes('aria-label="  " aria-labelledby="missing empty" title="T"', '', '<span id="empty"> </span>'))).toBe(
      'T',
    );
  });
});

describe('iconName', () => {
  const ids: TextById = (id) => ({ a: 'First', b: ' Second\n part ', c: '' })[id];

  it('joins the text of up to eight aria-labelledby ids, in their order', () => {
    expect(iconName(withAttributes('aria-labelledby=" b  a c missing "'), ids)).toBe('Second part First');
    const many = Array.from({ length: 10 }, (_, i) => `i${i}`).join(' ');
    expect(iconName(withAttributes(`aria-labelledby="${many}"`), (id) => id)).toBe('i0 i1 i2 i3 i4 i5 i6 i7');
  });

  it('bounds a name to 300 characters', () => {
    expect(iconName(withAttributes('aria-labelledby="a"'), () => 'word '.repeat(100))).toHaveLength(299);
  });

  it('takes the first title of an SVG anywhere in the link, after aria-labelledby names nothing', () => {
    expect(
      iconName(withAttributes('aria-labelledby="missing"', '<span><svg><path/></svg><svg><title>Cart</title></svg></span>'), ids),
    ).toBe('Cart');
    expect(iconName(link(ICON), null)).toBe('Search the site');
  });

  it('does not read aria-label, title, the text of the link, or a title outside an SVG', () => {
    expect(iconName(withAttributes('aria-label="Label" title="Title"', 'Text'), ids)).toBe('');
    expect(iconName(link('<span><title>Not an icon</title></span>'), ids)).toBe('');
  });

  it('looks no ids up where the tree cannot', () => {
    expect(iconName(withAttributes('aria-labelledby="a"', ICON), null)).toBe('Search the site');
  });
});
