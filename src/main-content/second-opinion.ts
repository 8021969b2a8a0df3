// A second extractor's answer, taken where ours looks to have cut content (docs/main-content.md,
// "A second opinion"). Our rules are tuned on articles; on pages that are not (a service page, a
// forum thread, a product, documentation) they lose recall: the extract keeps one block of a page
// whose content is several. defuddle (MIT, the extractor of Obsidian's Web Clipper) keeps more of
// such pages, and more boilerplate on articles. So it is asked only where ours holds under half of
// what the page shows, and its answer is taken only when it reads as the content ours cut: more than
// twice ours, not the whole page, and what it adds is text, not links. Its code comes to the
// page only when it is asked (second-extractor.ts, page-script.ts): most reads never compile it.
import { visibleLength } from './extract-dom';
import { wordCount } from './words';

/** The second extractor: the main content of a reader form as markup. */
export type Extractor = (form: Document, pageUrl: string) => string;

/** Ours is questioned only when it holds less than this share of the words the page shows. */
export const QUESTIONED_SHARE = 0.5;
/** The other answer must hold more than this many times ours' words: a block ours cut, not a paragraph. */
export const LONGER_BY = 2;
/** …and what it adds beyond ours must be mostly text: added link text at this share or over is a list of links. */
export const MAX_ADDED_LINK_SHARE = 0.2;

/** Words, characters and link characters of an answer. */
export interface Measure {
  words: number;
  chars: number;
  linkChars: number;
}

function measure(root: Element): Measure {
  let linkChars = 0;
  for (const link of root.querySelectorAll('a')) linkChars += visibleLength(link);
  return { words: wordCount(root.textContent ?? ''), chars: visibleLength(root), linkChars };
}

const pageWords = (form: Document) => wordCount(form.body?.textContent ?? '');

/** Whether an extract of `extractWords` words, from a page showing `pageWords`, is worth a second opinion. */
export const questions = (extractWords: number, pageWords: number): boolean => extractWords < QUESTIONED_SHARE * pageWords;

/** Whether our extract of the reader form is worth a second opinion. */
export const isQuestioned = (form: Document, extract: Element): boolean => questions(wordCount(extract.textContent ?? ''), pageWords(form));

/** Whether the other answer replaces ours, on a page showing `pageWords` words. */
export function replacesOurs(other: Measure, ours: Measure, pageWords: number): boolean {
  // An answer holding every word the page shows has extracted nothing.
  if (other.words <= LONGER_BY * ours.words || other.words >= pageWords) return false;
  const added = other.chars - ours.chars;
  return added > 0 && (other.linkChars - ours.linkChars) / added < MAX_ADDED_LINK_SHARE;
}

/**
 * The extractor's content of the reader form, as an element of the form; null when it finds none,
 * or fails. Its answer is markup: where parsing it is refused (a page that enforces Trusted Types
 * may refuse markup even from an isolated world), ours stands.
 */
function otherContent(form: Document, pageUrl: string, extractor: Extractor): Element | null {
  try {
    const html = extractor(form, pageUrl);
    if (!html) return null;
    // The reader form is an inert document (in-page/dom-form.ts): its scripts never run, its images never load.
    const holder = form.createElement('div');
    holder.innerHTML = html;
    return holder;
  } catch {
    return null;
  }
}

/**
 * The content to send instead of `extract`, when the extractor's answer reads as the content ours
 * cut; null to keep ours. `form` is the reader form as our extraction left it.
 */
export function secondOpinion(form: Document, extract: Element, pageUrl: string, extractor: Extractor): Element | null {
  const other = otherContent(form, pageUrl, extractor);
  return other !== null && replacesOurs(measure(other), measure(extract), pageWords(form)) ? other : null;
}
