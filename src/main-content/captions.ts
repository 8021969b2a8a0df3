// A picture's caption and credit in a main-content extract: not the article's text. Four shapes,
// each read from the extract's structure alone: the <figcaption> of a figure that shows something;
// a figure whose picture is not there; text sharing a small wrapper with one picture; a short line
// set in italics, or ending with a © credit, right after a block that is only a picture. An italic
// line that reads as a sentence, a figure of text (a poem, a callout) with its caption, or a wrapper
// with more text than a caption has, stays.
import { HAS_MEDIA, hasVisibleText, inContentContext, lineLength, normalized, writtenLength } from './extract-dom';
import { endsAsProse, endsUnmarked, wordCount } from './words';

/** Text kept beside a picture is its caption or credit up to this length, not the article's text. */
const MAX_CAPTION_CHARS = 250;
const PICTURES = 'img, picture, video';
/** A credit names who made or owns a picture in a few words ("© AFP / Marco Bertorello", "Image copyright Getty Images"). */
const MAX_CREDIT_WORDS = 6;

/**
 * Removes the text that shares a small wrapper with one picture, in elements of its own
 * (`<div><picture/><span>caption</span></div>`, a figure's credit line). Text written beside the
 * picture in the same run (an inline icon in a sentence) stays, and so does a wrapper with more
 * text than a caption has.
 */
function dropWrapperCaptions(root: Element): void {
  for (const image of root.querySelectorAll(PICTURES)) {
    // A <picture> stands for the <img> inside it.
    if (!root.contains(image) || (image.localName === 'img' && image.closest('picture') !== null)) continue;
    const path: Element[] = [image];
    let wrapper = image.parentElement;
    while (wrapper !== null && wrapper !== root && !hasVisibleText(wrapper)) {
      path.push(wrapper);
      wrapper = wrapper.parentElement;
    }
    if (wrapper === null || wrapper === root || !root.contains(wrapper)) continue;
    // The text as the markup holds it: read as one line, the 17 steps of a recipe page of the
    // snippets benchmark, each in a small wrapper beside its picture, fell under the limit and went
    // as captions.
    if (writtenLength(wrapper) > MAX_CAPTION_CHARS || wrapper.querySelectorAll('img, video').length > 1) continue;
    if (inContentContext(wrapper, root) && wrapper.closest('figure') === null) continue;
    const onPath = new Set<Node>(path);
    const besides = [...wrapper.childNodes].filter((node) => !onPath.has(node) && hasVisibleText(node));
    if (besides.some((node) => node.nodeType === Node.TEXT_NODE)) continue;
    for (const node of besides) wrapper.removeChild(node);
  }
}

/**
 * What a figure may hold besides a picture that makes it content of its own: a quotation, code, a
 * formula, a table, a link (an embed's fallback link to what it shows).
 */
const FIGURE_CONTENT = `${HAS_MEDIA}, blockquote, q, code, math, svg, canvas, iframe, a[href]`;

/** What a figure shows that its caption describes: a picture, a chart, a player, an embed. */
const SHOWN = 'img, picture, video, audio, svg, canvas, iframe, object, embed';

/**
 * Whether a figure without media holds text of its own — a poem, a callout, a pull quote — set as
 * paragraphs or lines, or written as prose, outside its caption. A lazy loader's placeholder keeps
 * only the picture's credit ("Image copyright Getty Images"), which is neither.
 */
function holdsOwnText(figure: Element): boolean {
  const body = figure.cloneNode(true) as Element;
  for (const caption of body.querySelectorAll('figcaption')) caption.remove();
  const text = normalized(body);
  if (body.querySelector('p, br') !== null || endsAsProse(text)) return true;
  // Where sentences end with no mark (Thai), a sentence is told from a credit by its length.
  return endsUnmarked(text) && wordCount(text) > MAX_CREDIT_WORDS;
}

/**
 * Removes a figure whose picture is not there (a lazy loader's placeholder whose script never ran):
 * what is left of it is the picture's credit ("Image copyright Getty Images"). A figure of text
 * (a poem, a callout, a pull quote) stays, with its caption.
 */
function dropFiguresWithoutPicture(root: Element): void {
  for (const figure of root.querySelectorAll('figure')) {
    if (!root.contains(figure) || figure.querySelector(FIGURE_CONTENT) !== null) continue;
    if (lineLength(figure) <= MAX_CAPTION_CHARS && !holdsOwnText(figure)) figure.remove();
  }
}

/**
 * Removes the captions of what a figure shows. The caption of a figure that shows nothing — a
 * poem's or a quotation's attribution, a code listing's or a table's title — names text that is
 * content itself, and stays (a placeholder's goes with its figure, above).
 */
function dropFigureCaptions(root: Element): void {
  for (const caption of root.querySelectorAll('figcaption')) {
    const figure = caption.closest('figure');
    if (figure === null || figure.querySelector(SHOWN) !== null) caption.remove();
  }
}

/** The element just before `el`, when only white space stands between them. */
function elementBefore(el: Element): Element | null {
  for (let node = el.previousSibling; node !== null; node = node.previousSibling) {
    if (node.nodeType === Node.ELEMENT_NODE) return node as Element;
    if (hasVisibleText(node)) return null;
  }
  return null;
}

/** A block that shows a picture and no text (`<p><a><img></a></p>`); the picture is looked for first, its text only then. */
const isPictureBlock = (el: Element | null) =>
  el !== null && (el.matches(PICTURES) || el.querySelector(PICTURES) !== null) && !hasVisibleText(el);

/** Whether every piece of text in the block is set in italics (inside an `em` or `i` of its own). */
function allItalic(block: Element): boolean {
  const texts = block.ownerDocument.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  let seen = false;
  for (let node = texts.nextNode(); node !== null; node = texts.nextNode()) {
    if (!hasVisibleText(node)) continue;
    const italic = node.parentElement?.closest('em, i');
    if (italic == null || !block.contains(italic)) return false;
    seen = true;
  }
  return seen;
}

/**
 * Whether a line ends with a credit: a © sign and a few words after it ("Marco Odermatt, Ski-Star aus
 * der Schweiz. © AFP / Marco Bertorello"), sentence or not before it. A sentence that carries on
 * past the sign ("The © on the cover of the 1970 edition was printed in red ink by mistake.") is prose.
 */
function isCredit(text: string): boolean {
  const sign = text.lastIndexOf('©');
  return sign >= 0 && wordCount(text.slice(sign + 1)) <= MAX_CREDIT_WORDS;
}

/**
 * Removes a short line set in italics right after a block that is only a picture ("*Kate Henshaw*",
 * "*Light a Wish by OGE Group*"), or one there that credits it with a © sign. Steps written under
 * each screenshot of a how-to are plain text, and prose in italics (it ends as a sentence or a clause does) stays.
 */
function dropItalicCaptions(root: Element): void {
  for (const block of root.querySelectorAll('p, div')) {
    // Cheapest first: most blocks follow no picture, and a wrapper's whole text is long to read.
    if (!root.contains(block) || !isPictureBlock(elementBefore(block)) || block.querySelector(HAS_MEDIA) !== null) continue;
    const text = normalized(block);
    if (text === '' || text.length > MAX_CAPTION_CHARS) continue;
    if (isCredit(text) || (!endsAsProse(text) && allItalic(block))) block.remove();
  }
}

/** Removes the extract's captions and credits. */
export function dropCaptions(root: Element): void {
  dropFigureCaptions(root);
  dropFiguresWithoutPicture(root);
  dropWrapperCaptions(root);
  dropItalicCaptions(root);
}
