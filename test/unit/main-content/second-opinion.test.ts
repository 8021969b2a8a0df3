// The second opinion (main-content/second-opinion.ts), over linkedom: asked only where our extract
// holds under half of what the page shows, and taken only when it holds clearly more.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { defuddleContent } from '../../../src/main-content/second-extractor';
import { isQuestioned, questions, replacesOurs, secondOpinion } from '../../../src/main-content/second-opinion';
import { PROSE } from '../../fixtures/must-keep/prose';
import { textOf, withDomGlobals } from './extract';

withDomGlobals();

const en = PROSE.find((prose) => prose.lang === 'en')!;
const paragraphs = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => `<p>${en.paragraphs[(i + offset) % en.paragraphs.length]}</p>`).join('');

/** A reader form: a document of `body`, as the extraction gets it. */
const formOf = (body: string) =>
  parseHTML(`<!DOCTYPE html><html><head><title>Page</title></head><body>${body}</body></html>`).document as unknown as Document;

/** Our extract: a copy of the form's element `selector`, as Readability hands it over. */
const extractOf = (form: Document, selector: string) => form.querySelector(selector)!.cloneNode(true) as Element;

const NAV = `<nav><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join('')}</ul></nav>`;

describe('questions and replacesOurs', () => {
  it('questions an extract holding under half of the words the page shows, and no other', () => {
    expect(questions(49, 100)).toBe(true);
    expect(questions(50, 100)).toBe(false);
    expect(questions(90, 100)).toBe(false);
  });

  const ours = { words: 100, chars: 600, linkChars: 30 };
  const other = (words: number, chars: number, linkChars: number) => ({ words, chars, linkChars });

  it('takes an answer of more than twice our words, fewer than the page shows, that adds text', () => {
    expect(replacesOurs(other(201, 1200, 100), ours, 1000)).toBe(true);
  });

  it('keeps ours against an answer of at most twice its words', () => {
    expect(replacesOurs(other(200, 1200, 30), ours, 1000)).toBe(false);
  });

  it('keeps ours against an answer holding every word the page shows (it extracted nothing)', () => {
    expect(replacesOurs(other(999, 5400, 30), ours, 1000)).toBe(true);
    expect(replacesOurs(other(1000, 5400, 30), ours, 1000)).toBe(false);
  });

  it('keeps ours when what the other answer adds is a fifth link text or more', () => {
    // 600 characters added, 120 of them (0.2) link text.
    expect(replacesOurs(other(300, 1200, 150), ours, 1000)).toBe(false);
    expect(replacesOurs(other(300, 1200, 149), ours, 1000)).toBe(true);
  });

  it('keeps ours when the other answer adds no characters', () => {
    expect(replacesOurs(other(300, 600, 30), ours, 1000)).toBe(false);
  });
});

describe('secondOpinion', () => {
  it("takes the other answer when ours kept one of a page's several sections", () => {
    const form = formOf(
      `${NAV}<main><section id="one"><h2>Plans</h2>${paragraphs(2)}</section>` +
        `<section id="two"><h2>Support</h2>${paragraphs(3, 2)}</section><section id="three"><h2>Terms</h2>${paragraphs(3, 5)}</section></main>` +
        `<footer>${paragraphs(2, 1)}</footer>`,
    );
    expect(isQuestioned(form, extractOf(form, '#one'))).toBe(true);
    const taken = secondOpinion(form, extractOf(form, '#one'), 'https://example.com/plans', defuddleContent);
    expect(taken).not.toBeNull();
    for (const heading of ['Plans', 'Support', 'Terms']) expect(textOf(taken!)).toContain(heading);
  });

  it('does not question an extract holding most of what the page shows', () => {
    const form = formOf(`${NAV}<article id="story"><h1>Story</h1>${paragraphs(6)}</article><footer><p>About us</p></footer>`);
    expect(isQuestioned(form, extractOf(form, '#story'))).toBe(false);
  });

  it('keeps ours when the other answer holds no more than it does', () => {
    const links = `<aside>${Array.from({ length: 60 }, (_, i) => `<p><a href="/t${i}">Teaser number ${i} of many</a></p>`).join('')}</aside>`;
    const form = formOf(`${links}<article id="story"><h1>Story</h1>${paragraphs(3)}</article>`);
    expect(secondOpinion(form, extractOf(form, '#story'), 'https://example.com/story', defuddleContent)).toBeNull();
  });

  it('keeps ours when the extractor fails or finds nothing', () => {
    const form = formOf(
      `${NAV}<main><section id="one">${paragraphs(2)}</section><section>${paragraphs(6, 2)}</section></main><footer>${paragraphs(2)}</footer>`,
    );
    const failing = () => {
      throw new Error('refused');
    };
    expect(secondOpinion(form, extractOf(form, '#one'), 'https://example.com/', failing)).toBeNull();
    expect(secondOpinion(form, extractOf(form, '#one'), 'https://example.com/', () => '')).toBeNull();
  });
});
