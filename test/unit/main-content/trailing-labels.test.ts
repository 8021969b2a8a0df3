// Labels left at the end of an extract (main-content/trailing-labels.ts), over linkedom: what goes
// (a share prompt, "Previous article", the site's copyright notice) and what stays (a short closing
// sentence, a line of information, prose in every script, Thai's unmarked sentences included).
import { describe, expect, it } from 'vitest';
import { dropTrailingLabels } from '../../../src/main-content/trailing-labels';
import { PROSE } from '../../fixtures/must-keep/prose';
import { extractOf, textOf, withDomGlobals } from './extract';

withDomGlobals();

const ARTICLE = '<p>The harbour wall was built in stone more than two centuries ago, and in winter it is the quietest walk in town.</p>';

describe('dropTrailingLabels removes', () => {
  it('a share prompt, "Previous article" and the copyright notice at the end', () => {
    const root = extractOf(`${ARTICLE}<p>Share this guide</p><div>Previous article</div><p>© 2026 Coastal Notes</p>`);
    dropTrailingLabels(root);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it('labels in scripts written without spaces or right to left', () => {
    for (const label of ['分享到微博', '記事を共有する', 'แชร์บทความนี้', 'अगला लेख', 'المقال التالي', 'הכתבה הבאה']) {
      const root = extractOf(`${ARTICLE}<p>${label}</p>`);
      dropTrailingLabels(root);
      expect(textOf(root), label).not.toContain(label);
    }
  });

  it('a label with a full-width colon', () => {
    const root = extractOf(`${ARTICLE}<p>联系我们：</p>`);
    dropTrailingLabels(root);
    expect(textOf(root)).not.toContain('联系我们');
  });
});

describe('dropTrailingLabels keeps', () => {
  it('a short closing sentence and a line of information', () => {
    const root = extractOf(`${ARTICLE}<p>Harbour office: 0800 123 456</p><p>Enjoy the wall!</p>`);
    dropTrailingLabels(root);
    expect(textOf(root)).toContain('Harbour office: 0800 123 456');
    expect(textOf(root)).toContain('Enjoy the wall!');
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('every paragraph and the closing line of %s prose', (_, prose) => {
    const root = extractOf([...prose.paragraphs, prose.closing].map((p) => `<p>${p}</p>`).join(''));
    const before = textOf(root);
    dropTrailingLabels(root);
    expect(textOf(root)).toBe(before);
  });

  it('Thai paragraphs, which end with no mark, however short their runs between spaces', () => {
    const thai = PROSE.find((prose) => prose.lang === 'th')!;
    const root = extractOf(thai.paragraphs.map((p) => `<p>${p}</p>`).join(''));
    dropTrailingLabels(root);
    expect(root.querySelectorAll('p')).toHaveLength(thai.paragraphs.length);
  });

  it('a list item, a quotation and a table at the end', () => {
    const root = extractOf(`${ARTICLE}<ul><li>Back</li></ul><blockquote>Onwards</blockquote><table><tr><td>Tide</td></tr></table>`);
    const before = textOf(root);
    dropTrailingLabels(root);
    expect(textOf(root)).toBe(before);
  });
});
