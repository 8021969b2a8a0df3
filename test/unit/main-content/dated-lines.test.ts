// Date lines and readers' comment threads (main-content/dated-lines.ts), over linkedom: a date line
// above or below the article goes, and so do the stamped comments after it; a schedule of <time>
// cells, a timeline, a sentence holding a date and a thread that is the page's content stay.
import { describe, expect, it } from 'vitest';
import { dropCommentThreads, dropDateLines } from '../../../src/main-content/dated-lines';
import { PROSE } from '../../fixtures/must-keep/prose';
import { extractOf, textOf, withDomGlobals } from './extract';

withDomGlobals();

const en = PROSE.find((prose) => prose.lang === 'en')!;
const ARTICLE = en.paragraphs.map((p) => `<p>${p}</p>`).join('');

describe('dropDateLines removes', () => {
  it('a block that is mostly a <time>, and a line that is a date and a clock', () => {
    const root = extractOf(
      `<p><time datetime="2018-02-16">Feb 16, 2018</time></p><div>Posted: Fri 6:45 PM, Feb 16, 2018</div>${ARTICLE}<p>October 06, 2018</p>`,
    );
    dropDateLines(root);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });
});

describe('dropDateLines keeps', () => {
  it.each(PROSE.map((prose) => [prose.script, prose] as const))('a schedule whose cells hold <time>, in %s', (_, prose) => {
    const rows = prose.schedule.map(
      ([clock, what]) => `<tr><td><time datetime="2026-01-10T${clock}">${clock}</time></td><td>${what}</td></tr>`,
    );
    const root = extractOf(`${ARTICLE}<table><tbody>${rows.join('')}</tbody></table>`);
    const before = textOf(root);
    dropDateLines(root);
    expect(textOf(root)).toBe(before);
    for (const row of root.querySelectorAll('tr')) expect(row.children).toHaveLength(2);
  });

  it('a timeline of dated items, and a sentence holding a date', () => {
    const root = extractOf(
      `<ol><li><time>12 March 2019</time></li><li><span><time>1 July 2020</time></span></li></ol><p>The wall reopened on 1 July 2020, after a winter of repairs to its stones.</p>`,
    );
    const before = textOf(root);
    dropDateLines(root);
    expect(textOf(root)).toBe(before);
  });

  it("a quotation's date (an embedded post's)", () => {
    const root = extractOf(`${ARTICLE}<blockquote><p>The lamp is lit.</p><p><time>Nov 19, 2019 4:20am</time></p></blockquote>`);
    const before = textOf(root);
    dropDateLines(root);
    expect(textOf(root)).toBe(before);
  });
});

const post = (text: string, i: number) => `<div class="post"><p>Reader ${i}</p><p>Jan ${i + 1}, 2026 10:1${i} AM</p><p>${text}</p></div>`;

describe('dropCommentThreads', () => {
  it('removes the stamped comments below an article, with their heading', () => {
    const comments = ['Lovely walk.', 'We went last week.', 'Too windy for us.'].map(post);
    const root = extractOf(`${ARTICLE}<h3>Comments</h3>${comments.join('')}`);
    dropCommentThreads(root);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))(
    'keeps a question-and-answer thread that is the page, in %s',
    (_, prose) => {
      const root = extractOf(prose.thread.map(post).join(''));
      const before = textOf(root);
      dropCommentThreads(root);
      expect(textOf(root)).toBe(before);
    },
  );

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('keeps short stamped posts whole, stamps aside, in %s', (_, prose) => {
    const posts = prose.thread.map(
      (text, i) => `<div class="post"><a href="/u">user${i}</a> Jan 1${i}, 2026 10:15 AM <p>${text}</p></div>`,
    );
    const root = extractOf(posts.join(''));
    dropDateLines(root);
    for (const text of prose.thread) expect(textOf(root)).toContain(text);
  });
});
