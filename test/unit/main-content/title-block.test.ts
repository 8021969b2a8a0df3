// The article beside the page's title (title-block.ts), on documents parsed by linkedom: Readability's
// pick from the whole page is given as it would come back, a block of another part of the page.
// Type-checked with the in-page scripts (src/in-page/tsconfig.json): it needs the DOM's types.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { titleBlockArticle } from '../../../src/main-content/title-block';

const ROWS = [
  ['Material', 'Solid brass body with a hand-blown glass chimney'],
  ['Burner', 'Paraffin burner with a cotton wick that lasts about forty hours'],
  ['Height', 'Thirty centimetres from the foot to the top of the carrying ring'],
  ['Finish', 'Polished by hand and left unlacquered so that it darkens with the sea air'],
  ['Use', 'Made for cabins, porches and garden tables, not for use as a navigation light'],
  ['Care', 'Wipe with a dry cloth after use and trim the wick before lighting it again'],
  ['Origin', 'Cast and assembled in a small workshop on the south coast since the nineteen fifties'],
  ['Weight', 'One kilogram and a half with the glass, a little more once it is filled'],
  ['Fuel', 'Any clear lamp oil or paraffin; never petrol, spirit or oil meant for torches'],
  ['Delivery', 'Packed in a wooden crate with straw, sent within two working days'],
];
const SHEET = ROWS.map(([label, value]) => `<div class="row"><div>${label}</div><div>${value}</div></div>`).join('');
const NOTES =
  'Orders placed before noon leave the same day, by post or by courier, from our shop by the harbour, and we wrap every lantern in paper, straw and a wooden crate.';

function page(h1: string, sheet = SHEET, notes = NOTES) {
  const { document } = parseHTML(
    `<!DOCTYPE html><html><head><title>t</title></head><body><nav><a href="/a">Lanterns</a> <a href="/b">Ropes</a></nav>` +
      `<div class="page"><div class="sheet"><h1>${h1}</h1>${sheet}</div></div>` +
      `<div class="service"><div class="notes"><p>${notes}</p></div></div></body></html>`,
  );
  // linkedom has no DOMImplementation; the browser's createHTMLDocument gives an empty document like this.
  const implementation = { createHTMLDocument: () => parseHTML('<!DOCTYPE html><html><head></head><body></body></html>').document };
  Object.defineProperty(document, 'implementation', { value: implementation });
  return document as unknown as Document;
}

/** What Readability would give for the block holding `selector`: a copy of it. */
const pickOf = (form: Document, selector: string) => form.querySelector(selector)!.cloneNode(true) as Element;

describe('the article beside the title', () => {
  it('is Readability asked about the block around the h1 that names the title, when its pick lies elsewhere and holds less text', () => {
    const form = page('Harbour lantern, brass, 30 cm');
    const found = titleBlockArticle(form, pickOf(form, '.notes'), 'Harbour lantern, brass, 30 cm');
    expect(found).not.toBeNull();
    const text = found!.textContent!.replace(/\s+/g, ' ');
    for (const [, value] of ROWS) expect(text).toContain(value);
    expect(text).not.toContain('Orders placed before noon');
  });

  it('finds the h1 that holds the title without the words after it, or that the title holds', () => {
    const form = page('Harbour lantern, brass, 30 cm');
    expect(
      titleBlockArticle(form, pickOf(form, '.notes'), 'Harbour lantern, brass, 30 cm - Chandlery in Falmouth, Cornwall, since 1950'),
    ).not.toBeNull();
  });

  it('is the block itself when Readability keeps a part of it with less text than the pick (rows in a block it reads as unlikely)', () => {
    const packs = Array.from({ length: 60 }, (_, i) => `<div class="row"><span>Pack ${i}</span> <span>${i * 10} tablets</span></div>`);
    const intro = 'Homeopathic tablets, made from quinine salicylate, diluted, shaken, pressed, for adults, for children. '.repeat(6);
    const footer = 'The site is a service of a publisher, for doctors, pharmacists, and other trades, with news, data, and tools. '.repeat(
      9,
    );
    const form = page('Chininum tablets, D4', `<div class="intro"><p>${intro}</p></div><div class="extra">${packs.join('')}</div>`, footer);
    const found = titleBlockArticle(form, pickOf(form, '.notes'), 'Chininum tablets, D4');
    expect(found?.className).toBe('sheet');
    const text = found!.textContent!;
    expect(text).toContain('Homeopathic tablets, made from quinine salicylate');
    expect(text).toContain('Pack 59');
    expect(text).not.toContain('The site is a service of a publisher');
  });

  it('is nothing when the block around the title holds the pick, even a pick of less text', () => {
    const form = page('Harbour lantern, brass, 30 cm');
    const secondRow = form.querySelectorAll('.row')[1]!.cloneNode(true) as Element;
    expect(titleBlockArticle(form, secondRow, 'Harbour lantern, brass, 30 cm')).toBeNull();
  });

  it('is nothing when no h1 says the title (a site name in an h1)', () => {
    const form = page('Fixture Chandlery');
    expect(titleBlockArticle(form, pickOf(form, '.notes'), 'Harbour lantern, brass, 30 cm')).toBeNull();
  });

  it("is nothing when the block around the title holds less text than the pick (a headline's band apart from the article's body)", () => {
    const band = `<p>${'A standfirst that sums the story up in a sentence or two, and a byline. '.repeat(10)}</p>`;
    const body = `The article's own paragraph, long and full of detail, one of many. `.repeat(20);
    const form = page('Harbour lantern, brass, 30 cm', band, body);
    expect(titleBlockArticle(form, pickOf(form, '.notes'), 'Harbour lantern, brass, 30 cm')).toBeNull();
  });
});
