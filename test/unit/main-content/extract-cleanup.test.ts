// The whole cleaning of an extract (main-content/extract-cleanup.ts, dropNonArticle), over linkedom:
// cross-links, teasers and small print go; an article in every script, a listicle under linked
// headings, recipe steps and a short closing paragraph stay.
import { describe, expect, it } from 'vitest';
import { dropNonArticle } from '../../../src/main-content/extract-cleanup';
import { PROSE, type Prose } from '../../fixtures/must-keep/prose';
import { extractOf, textOf, withDomGlobals } from './extract';

withDomGlobals();

const en = PROSE.find((prose) => prose.lang === 'en')!;
const paragraphs = (prose: Prose) => prose.paragraphs.map((p) => `<p>${p}</p>`).join('');
const ARTICLE = paragraphs(en);

describe('dropNonArticle removes', () => {
  it('a cross-link to another story, its label a colon in either width', () => {
    const root = extractOf(
      `${ARTICLE}<p>Read more: <a href="/x">Storm damages the pier at the end of the season</a></p>` +
        '<p>相关阅读：<a href="/y">暴风雨损坏了季末的码头和附近的渔船</a></p>',
    );
    dropNonArticle(root, null);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it('a run of teasers after the article, with its heading', () => {
    const teasers = ['Storm damages the pier', 'New café opens on the quay', 'Seal pups counted on the rocks']
      .map((headline) => `<div><h3><a href="/s">${headline}</a></h3><p>A short summary.</p></div>`)
      .join('');
    const root = extractOf(`${ARTICLE}<h2>More stories</h2>${teasers}`);
    dropNonArticle(root, null);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it('small print: blocks set well below the size of the article', () => {
    const body = en.paragraphs.map((p) => `<p data-page-fetch-font-px="18">${p}</p>`).join('');
    const root = extractOf(`${body}<p data-page-fetch-font-px="12">Comments are moderated before they appear.</p>`);
    dropNonArticle(root, null);
    expect(textOf(root)).not.toContain('moderated');
  });
});

describe('dropNonArticle keeps', () => {
  it.each(PROSE.map((prose) => [prose.script, prose] as const))('every paragraph and the closing line of an article in %s', (_, prose) => {
    const root = extractOf(`${paragraphs(prose)}<p>${prose.closing}</p>`);
    const before = textOf(root);
    dropNonArticle(root, prose.title);
    expect(textOf(root)).toBe(before);
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('a listicle, each item under its linked name, in %s', (_, prose) => {
    const items = prose.list.items.map(([name, text]) => `<section><h3><a href="/place">${name}</a></h3><p>${text}</p></section>`).join('');
    const root = extractOf(`<p>${prose.paragraphs[0]}</p><h2>${prose.list.heading}</h2>${items}`);
    const before = textOf(root);
    dropNonArticle(root, prose.title);
    expect(textOf(root)).toBe(before);
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('recipe steps and a schedule of <time>, in %s', (_, prose) => {
    const steps = prose.steps.map((step) => `<li>${step}</li>`).join('');
    const rows = prose.schedule.map(([clock, what]) => `<tr><td><time>${clock}</time></td><td>${what}</td></tr>`).join('');
    const root = extractOf(`${paragraphs(prose)}<ol>${steps}</ol><table>${rows}</table>`);
    const before = textOf(root);
    dropNonArticle(root, prose.title);
    expect(textOf(root)).toBe(before);
  });

  it('a line with a number after the article, and text of no known size', () => {
    const root = extractOf(`${ARTICLE}<p>Harbour office: 0800 123 456</p>`);
    const before = textOf(root);
    dropNonArticle(root, null);
    expect(textOf(root)).toBe(before);
  });
});
