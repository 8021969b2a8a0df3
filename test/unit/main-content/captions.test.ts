// Captions and credits (main-content/captions.ts), over linkedom: a picture's caption and credit go;
// a figure of text (a poem, a callout, a pull quote) stays with its caption, and so do a sentence
// that carries a © sign past it and recipe steps under their pictures.
import { describe, expect, it } from 'vitest';
import { dropCaptions } from '../../../src/main-content/captions';
import { PROSE } from '../../fixtures/must-keep/prose';
import { extractOf, textOf, withDomGlobals } from './extract';

withDomGlobals();

const en = PROSE.find((prose) => prose.lang === 'en')!;
const ARTICLE = en.paragraphs.map((p) => `<p>${p}</p>`).join('');
const PICTURE = '<p><a href="/big.jpg"><img src="/wall.jpg" alt=""></a></p>';

describe('dropCaptions removes', () => {
  it("a picture's <figcaption>", () => {
    const root = extractOf(
      `${ARTICLE}<figure><img src="/wall.jpg" alt=""><figcaption>The wall at dawn. Photo: Mary Pendle</figcaption></figure>`,
    );
    dropCaptions(root);
    expect(textOf(root)).not.toContain('Photo: Mary Pendle');
    expect(root.querySelector('img')).not.toBeNull();
  });

  it("a figure whose picture is not there: what is left is the picture's credit", () => {
    const root = extractOf(`${ARTICLE}<figure><span><span>Image copyright</span> <span>Getty Images</span></span></figure>`);
    dropCaptions(root);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it('a line after a picture that ends with a © credit, a sentence before it or not', () => {
    const root = extractOf(`${ARTICLE}${PICTURE}<p>Marco Odermatt, Ski-Star aus der Schweiz. © AFP / Marco Bertorello</p>`);
    dropCaptions(root);
    expect(textOf(root)).toBe(textOf(extractOf(ARTICLE)));
  });

  it('a short line in italics after a picture', () => {
    const root = extractOf(`${ARTICLE}${PICTURE}<p><em>Light a Wish by OGE Group</em></p>`);
    dropCaptions(root);
    expect(textOf(root)).not.toContain('Light a Wish');
  });
});

describe('dropCaptions keeps', () => {
  it.each(PROSE.map((prose) => [prose.script, prose] as const))('a poem in a figure and its poet in the figcaption, in %s', (_, prose) => {
    const poem = `<figure><p>${prose.poem.lines.join('<br>')}</p><figcaption>${prose.poem.poet}</figcaption></figure>`;
    const root = extractOf(`${ARTICLE}${poem}`);
    const before = textOf(root);
    dropCaptions(root);
    expect(textOf(root)).toBe(before);
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('a callout: a figure of one sentence, in %s', (_, prose) => {
    const root = extractOf(`${ARTICLE}<figure><div>${prose.callout}</div></figure>`);
    dropCaptions(root);
    expect(textOf(root)).toContain(prose.callout);
  });

  it('a pull quote with its attribution, and a code listing with its title', () => {
    const root = extractOf(
      `${ARTICLE}<figure><blockquote>The sea comes back quickly.</blockquote><figcaption>— the harbour master</figcaption></figure>` +
        '<figure><pre><code>tide --table</code></pre><figcaption>Listing 1. Printing the tide table</figcaption></figure>',
    );
    const before = textOf(root);
    dropCaptions(root);
    expect(textOf(root)).toBe(before);
  });

  it('a sentence after a picture that carries on past a © sign', () => {
    const sentence = 'The © on the cover of the 1970 edition was printed in red ink by mistake, and collectors still look for it.';
    const root = extractOf(`${ARTICLE}${PICTURE}<p>${sentence}</p>`);
    dropCaptions(root);
    expect(textOf(root)).toContain(sentence);
  });

  it.each(PROSE.map((prose) => [prose.script, prose] as const))('recipe steps under their pictures, in %s', (_, prose) => {
    const steps = prose.steps.map((step, i) => `<li><img src="/step${i}.jpg" alt=""><p>${step}</p></li>`).join('');
    const root = extractOf(`${ARTICLE}<ol>${steps}</ol>`);
    const before = textOf(root);
    dropCaptions(root);
    expect(textOf(root)).toBe(before);
  });

  it('an italic sentence after a picture', () => {
    const root = extractOf(`${ARTICLE}${PICTURE}<p><em>Average daily intake 1,694 kcal.</em></p>`);
    dropCaptions(root);
    expect(textOf(root)).toContain('Average daily intake 1,694 kcal.');
  });
});
