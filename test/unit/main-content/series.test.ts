// A thread of posts (main-content/series.ts), over linkedom: where Readability keeps one post of a
// thread, the extract is every post of its kind; blocks of one kind that are a page's layout, its
// teasers or its empty slots are left as Readability had them.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { ourExtract } from '../../../src/main-content/index';
import { readabilityArticle } from '../../../src/main-content/readability-article';
import { MAX_HEADED_SHARE, seriesOf } from '../../../src/main-content/series';
import { PROSE } from '../../fixtures/must-keep/prose';
import { textOf, withDomGlobals } from './extract';

withDomGlobals();

const en = PROSE.find((prose) => prose.lang === 'en')!;
const paragraph = (i: number) => `<p>${en.paragraphs[i % en.paragraphs.length]}</p>`;

/** A reader form: a document of `body`, as the extraction gets it. */
const formOf = (body: string) =>
  parseHTML(`<!DOCTYPE html><html><head><title>Page</title></head><body>${body}</body></html>`).document as unknown as Document;

/** Readability's article as it hands it over: its wrappers around a copy of the form's `selector`. */
function articleOf(form: Document, selector: string): Element {
  const { document } = parseHTML('<div id="readability-content"><div id="readability-page-1" class="page"></div></div>');
  const content = document.getElementById('readability-content') as unknown as Element;
  content.firstElementChild!.append(form.querySelector(selector)!.cloneNode(true));
  return content;
}

/** A post as a forum writes it: who and when, the body, and the buttons under it. */
const post = (body: string, n: number) =>
  `<article class="post"><ul class="meta"><li><a href="/u/${n}">member${n}</a></li><li>1 May</li></ul>` +
  `<div class="post-body">${body}</div><ul class="actions"><li><a href="/p/${n}/reply">Reply</a></li></ul></article>`;

describe('seriesOf', () => {
  it("takes every post of the picked post's kind, in the page's order, and nothing around them", () => {
    const bodies = [paragraph(0) + paragraph(1), paragraph(2), paragraph(3), 'Thanks, that worked.'];
    const form = formOf(`<nav><a href="/">Home</a></nav><main>${bodies.map((body, n) => post(body, n)).join('')}</main>`);
    const series = seriesOf(form, articleOf(form, 'article:nth-of-type(2) .post-body'))!;
    expect([...series.children].map((child) => child.getAttribute('class'))).toEqual(['post-body', 'post-body', 'post-body', 'post-body']);
    expect([...series.children].map(textOf)).toEqual(bodies.map((body) => textOf(formOf(body).body as unknown as Element)));
    expect(textOf(series)).not.toContain('Reply');
    expect(textOf(series)).not.toContain('member');
  });

  it('takes a post that quotes another in a body of the same kind once, the quote inside it', () => {
    const quoting = `<blockquote><div class="post-body">${paragraph(0)}</div></blockquote>${paragraph(2)}`;
    const form = formOf(`<main>${post(paragraph(0) + paragraph(1), 0)}${post(quoting, 1)}${post(paragraph(3), 2)}</main>`);
    const series = seriesOf(form, articleOf(form, '.post-body'))!;
    expect(series.children).toHaveLength(3);
    expect(series.children[1]!.querySelector('blockquote .post-body')).not.toBeNull();
  });

  it('keeps a thread whose answers carry a heading of their own, fewer than MAX_HEADED_SHARE of them', () => {
    const bodies = Array.from({ length: 6 }, (_, i) => (i === 3 ? `<h2>Another way</h2>${paragraph(i)}` : paragraph(i)));
    expect(1).toBeLessThan(MAX_HEADED_SHARE * bodies.length);
    const form = formOf(`<main>${bodies.map((body, n) => post(body, n)).join('')}</main>`);
    expect(seriesOf(form, articleOf(form, '.post-body'))?.children).toHaveLength(6);
  });

  it.each(['h2', 'h3'])("leaves a page's sections alone: blocks of one layout kind, each under an %s", (level) => {
    const section = (heading: string, i: number) => `<div class="container"><${level}>${heading}</${level}>${paragraph(i)}</div>`;
    const form = formOf(
      `<div class="container"><h1>The harbour</h1>${paragraph(0)}${paragraph(1)}</div>${section('Visiting', 2)}${section('Contact', 3)}`,
    );
    expect(seriesOf(form, articleOf(form, '.container'))).toBeNull();
  });

  it('leaves blocks of one kind alone when one of them is empty (a layout slot, not a post)', () => {
    const form = formOf(
      `<div class="slot">${paragraph(0)}${paragraph(1)}</div><div class="slot">${paragraph(2)}</div><div class="slot"> </div>`,
    );
    expect(seriesOf(form, articleOf(form, '.slot'))).toBeNull();
  });

  it('leaves blocks of one kind alone when together they are mostly links (teasers, menus)', () => {
    const teaser = (i: number) => `<div class="card"><a href="/story/${i}">${en.paragraphs[i % en.paragraphs.length]}</a> More.</div>`;
    const form = formOf(`<div class="card">${paragraph(0)}</div>${teaser(1)}${teaser(2)}${teaser(3)}`);
    expect(seriesOf(form, articleOf(form, '.card'))).toBeNull();
  });

  it('leaves a block alone that is the only one of its kind', () => {
    const form = formOf(`<div class="article-body">${paragraph(0)}${paragraph(1)}</div><div class="article-footer">${paragraph(2)}</div>`);
    expect(seriesOf(form, articleOf(form, '.article-body'))).toBeNull();
  });

  it('leaves an article alone whose block has no class to tell its kind by', () => {
    const form = formOf(`<div>${paragraph(0)}</div><div>${paragraph(1)}</div>`);
    expect(seriesOf(form, articleOf(form, 'div'))).toBeNull();
  });

  it('leaves an article alone that Readability made of several blocks (siblings it joined)', () => {
    const form = formOf(`<div class="post-body">${paragraph(0)}</div><div class="post-body">${paragraph(1)}</div>`);
    const content = articleOf(form, '.post-body');
    content.firstElementChild!.append(form.querySelectorAll('.post-body')[1]!.cloneNode(true));
    expect(seriesOf(form, content)).toBeNull();
  });
});

describe('ourExtract on a thread', () => {
  // A forum's post: its body four wrappers deep, under its member's links and over its buttons, as
  // forum software writes it (test/fixtures/pages/forum-thread.html is such a thread in the browser).
  const forumPost = (body: string, n: number) =>
    `<article class="post"><div class="post-inner"><ul class="post-meta"><li><a href="/u/${n}">member${n}</a></li>` +
    `<li><a href="/u/${n}/posts">Posts</a></li><li><a href="/u/${n}/followers">Followers</a></li></ul>` +
    `<div class="post-cell"><div class="post-main"><div class="post-content"><div class="post-body">${body}</div></div></div></div>` +
    `<ul class="post-actions"><li><a href="/p/${n}/reply">Reply</a></li><li><a href="/p/${n}/quote">Quote</a></li>` +
    `<li><a href="/p/${n}/like">Like</a></li><li><a href="/p/${n}/report">Report</a></li></ul></div></article>`;

  it("answers every post of a forum thread where Readability keeps the first one, without the posts' members and buttons", () => {
    const bodies = [[0, 1, 2, 3, 4].map(paragraph).join(''), paragraph(5), paragraph(6), 'Thank you all, the cover drained nicely.'];
    const form = formOf(
      `<nav><a href="/">Forums</a> <a href="/boats">Boats</a></nav><main><h1>Wintering a dinghy</h1><div class="posts">${bodies.map(forumPost).join('')}</div></main>`,
    );
    // Readability alone keeps the first post.
    const readability = textOf(readabilityArticle(form.cloneNode(true) as Document)!.content as Element);
    expect(readability).toBe(textOf(formOf(bodies[0]!).body as unknown as Element));
    const extract = ourExtract(form, { title: null } as never, 'http://127.0.0.1/thread')!.content;
    expect([...extract.children].map(textOf)).toEqual(bodies.map((body) => textOf(formOf(body).body as unknown as Element)));
    expect(textOf(extract)).not.toMatch(/member|Reply|Followers/);
  });
});
