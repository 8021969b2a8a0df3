// The extract's headings that name nothing of the article's own: one that repeats the title (a
// second headline, a breadcrumb ending in it), one above the text that says the title again in other
// words, those left at the end with nothing (or a count) under them once
// the sections they named were removed, and an author's card that ends the extract.
import { HAS_MEDIA, MAX_NAME_CHARS, normalized, shortElements, squeezedText, visibleLength, withoutSpace } from './extract-dom';
import { termsOf, wordCount } from './words';

/**
 * Removes a block that repeats the heading (a second headline, a breadcrumb ending in it). Below the
 * article's first paragraph a heading that says more than the title names a section of its own
 * ("Bee Simulator Mehrspieler" on a page titled "Bee Simulator") and stays.
 */
export function dropRepeatedHeading(root: Element, heading: string): void {
  const title = withoutSpace(heading);
  if (title === '') return;
  const short = shortElements(root, title.length + MAX_NAME_CHARS);
  // The article's first paragraph, not a breadcrumb Readability made a paragraph of, which goes.
  const firstParagraph = [...root.querySelectorAll('p')].find((p) => {
    const text = squeezedText(p);
    return text !== '' && !text.includes(title);
  });
  const isSection = (block: Element, text: string) =>
    /^h[1-6]$/.test(block.localName) &&
    text !== title &&
    firstParagraph !== undefined &&
    (firstParagraph.compareDocumentPosition(block) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  for (const block of root.querySelectorAll('h1, h2, h3, p, div, nav, ol, ul')) {
    if (!short.has(block) || !root.contains(block) || block.querySelector(HAS_MEDIA) !== null) continue;
    const text = squeezedText(block);
    if (text.includes(title) && !isSection(block, text)) block.remove();
  }
}

/** A headline above the article's text that shares this much of its words with the title says the title again. */
const MIN_RESTATED_SHARE = 0.6;

/** Shared words over all words of the two (Jaccard). */
function sharedWords(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared || 1);
}

/** Whether `text` says the title (`heading`) again: most of the words of the two are shared. */
export function restatesTitle(text: string, heading: string): boolean {
  return sharedWords(new Set(termsOf(text)), new Set(termsOf(heading))) >= MIN_RESTATED_SHARE;
}

/**
 * Removes a headline left above the article's first paragraph that says the title again in other
 * words ("High School Roundup: …" under the shared title "HS Roundup: …"): a reader would read it
 * twice. A subtitle that sums the article up stays (it is the article's own standfirst), and so
 * does a heading that names the first section; further down, a section heading that shares words
 * with the title is the article's own.
 */
export function dropArticleHeader(root: Element, heading: string): void {
  const title = new Set(termsOf(heading));
  // Without a paragraph there is no telling the article's header from its sections: nothing goes.
  const firstParagraph = [...root.querySelectorAll('p')].find((p) => visibleLength(p) > 0);
  if (firstParagraph === undefined) return;
  for (const headline of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    if (!(headline.compareDocumentPosition(firstParagraph) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
    if (sharedWords(new Set(termsOf(headline.textContent ?? '')), title) >= MIN_RESTATED_SHARE) headline.remove();
  }
}

/**
 * What a section's label may have under it and still be a label alone ("12 comments" beside a widget
 * that shows no text), counted in words: twenty characters are three words of English and a whole
 * sentence of Chinese.
 */
const MAX_LABEL_TAIL_WORDS = 3;

/** What follows `el` in the extract, in document order: its next siblings, then its ancestors' next siblings. */
function* nodesAfter(el: Element, root: Element): Generator<ChildNode> {
  for (let node: Node | null = el; node !== null && node !== root; node = node.parentNode) {
    for (let next = node.nextSibling; next !== null; next = next.nextSibling) yield next;
  }
}

const holdsMedia = (node: Node) =>
  node.nodeType === Node.ELEMENT_NODE && ((node as Element).matches(HAS_MEDIA) || (node as Element).querySelector(HAS_MEDIA) !== null);

/** Whether what follows `el` in the extract holds media or more than `maxWords` words. */
function holdsMoreAfter(el: Element, root: Element, maxWords: number): boolean {
  let words = 0;
  for (const next of nodesAfter(el, root)) {
    if (holdsMedia(next)) return true;
    words += wordCount(next.textContent ?? '');
    if (words > maxWords) return true;
  }
  return false;
}

/**
 * Removes the headings that end the extract, with the few words under them: a heading names what
 * follows it, and nothing does there (its section was a list of links or teasers, removed above, or
 * a widget that shows no text, a comment count at most).
 */
export function dropTrailingHeadings(root: Element): void {
  // A <label> standing in the extract is a widget's caption ("RECENT ARTICLES" over a tab of teasers).
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, label')];
  for (let i = headings.length - 1; i >= 0; i--) {
    const heading = headings[i]!;
    if (holdsMoreAfter(heading, root, MAX_LABEL_TAIL_WORDS)) break;
    removeFrom(heading, root);
  }
}

/** What a card about someone may hold under their name: a line or two of biography and links. */
const MAX_CARD_CHARS = 600;

/** The links in `node`, itself included. */
const linksIn = (node: ChildNode): Element[] =>
  node.nodeType !== Node.ELEMENT_NODE
    ? []
    : [...((node as Element).matches('a[href]') ? [node as Element] : []), ...(node as Element).querySelectorAll('a[href]')];

/**
 * Removes a card about someone that ends the extract — an author's box: the name as a heading, a
 * line of biography, a link that names them again ("More articles from …") — which is about the
 * writer, not the article. Only a short end section whose own link repeats its heading is taken.
 */
export function dropTrailingCard(root: Element): void {
  const headings = root.querySelectorAll('h2, h3, h4, h5, h6');
  for (let i = headings.length - 1; i >= 0; i--) {
    const heading = headings[i]!;
    const name = normalized(heading);
    const isName = name !== '' && name.length <= MAX_NAME_CHARS && heading.querySelector(HAS_MEDIA) === null;
    // One walk of what follows: its length (a card is short) and a link naming the heading again.
    let chars = 0;
    let namedAgain = false;
    for (const next of nodesAfter(heading, root)) {
      chars += visibleLength(next);
      if (chars > MAX_CARD_CHARS) return;
      namedAgain ||= isName && linksIn(next).some((link) => normalized(link).includes(name));
    }
    if (namedAgain) {
      removeFrom(heading, root);
      return;
    }
  }
}

/** Removes `el` and everything after it in the extract. */
function removeFrom(el: Element, root: Element): void {
  for (const next of [...nodesAfter(el, root)]) next.remove();
  el.remove();
}
