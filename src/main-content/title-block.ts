// The article beside its title, when Readability picked a block far from it. Readability scores
// paragraphs (their length, their commas), so a page whose article is written as lists and rows of
// label and value (a product's sheet) or as text between line breaks can lose to a shop's delivery
// terms or a newsletter form elsewhere on the page. The page's own `<h1>` that names the article
// tells where the article is: when the block around that heading does not hold Readability's pick,
// Readability is asked again about that block alone, and its answer is taken when it holds more text
// than the first pick; when it keeps less (a part of the block), the block itself is, if it holds
// more. A headline's band of standfirst and byline, apart from the article's body, holds less.
import { oneLine } from '../shared/one-line';
import { normalized, visibleLength } from './extract-dom';
import { restatesTitle } from './extract-headings';
import { readabilityArticle } from './readability-article';

/** The block around the heading: its smallest ancestor with at least this much text. */
const MIN_BLOCK_CHARS = 500;
/** The extract is found in the page by the start of its first paragraph of at least this many characters. */
const PROBE_CHARS = 40;

/** An h1 shorter than this is not told from a site's name by being part of the title. */
const MIN_TITLE_CHARS = 10;

/**
 * The page's first `<h1>` that says the article's title: most words shared, or the one holding the
 * other ("D.O.Ca. Rioja, Spanien" for "D.O.Ca. Rioja, Spanien - Iberische Weine in Berlin"). A
 * site's logo or name in an h1 does not.
 */
function titleElement(form: Document, heading: string): Element | null {
  const title = oneLine(heading).toLowerCase();
  for (const h1 of form.querySelectorAll('h1')) {
    const text = normalized(h1).toLowerCase();
    if (restatesTitle(text, title)) return h1;
    if (text.length >= MIN_TITLE_CHARS && (title.includes(text) || text.includes(title))) return h1;
  }
  return null;
}

/** The start of the extract's first paragraph long enough to be told apart, as a line. */
function probeOf(content: Element): string | null {
  for (const p of content.querySelectorAll('p, li, td, div')) {
    const text = normalized(p);
    if (text.length >= PROBE_CHARS && p.querySelector('p, li, td, div') === null) return text.slice(0, PROBE_CHARS);
  }
  return null;
}

/**
 * The article in the block around the page's title, when Readability's pick from the whole page
 * (`content`) lies outside that block: Readability's answer on the block, else the block itself;
 * null when the block holds the pick, when the page has no such title, or when neither holds more
 * text than the pick.
 */
export function titleBlockArticle(form: Document, content: Element, heading: string): Element | null {
  const title = titleElement(form, heading);
  const probe = probeOf(content);
  if (title === null || probe === null) return null;
  let block: Element = title;
  while (block.parentElement !== null && visibleLength(block) < MIN_BLOCK_CHARS) block = block.parentElement;
  if (block === form.body || normalized(block).includes(probe)) return null;
  const pick = visibleLength(content);
  const found = readabilityOn(form, block);
  if (found !== null && visibleLength(found) > pick) return found;
  // Readability keeps a part of the block (a data sheet's rows score little): the block itself.
  return visibleLength(block) > pick ? (block.cloneNode(true) as Element) : null;
}

/** Readability's article in a document holding `block` alone; null when it finds none. */
function readabilityOn(form: Document, block: Element): Element | null {
  const doc = form.implementation.createHTMLDocument('');
  doc.body.append(doc.importNode(block, true));
  return (readabilityArticle(doc)?.content as Element | null | undefined) ?? null;
}
