// Lines left at the end of an extract that are no sentence of the article: a share prompt, "Previous
// article", "Back", "Contact:", a licence's name — a few words with no sentence's end and nothing
// of information in them (no number, no web address), standing alone after the article's last
// paragraph; and the site's copyright notice (© and a year). Read from the end until the first
// block that is prose (or holds a picture, a table, a list item, a quotation, code): only the tail
// goes.
import { HAS_MEDIA, inContentContext, normalized } from './extract-dom';
import { endsAsSentence, endsUnmarked, wordCount } from './words';

/** A line of at most this many words that does not end as a sentence is a label, not prose. */
const MAX_LABEL_WORDS = 6;
/** Labels taken from the end at most: a tail, never the article. */
const MAX_TRAILING_LABELS = 4;
const BLOCKS = 'p, div, section, aside, header, footer, li, dd, dt, h1, h2, h3, h4, h5, h6, blockquote, figure, pre, table';

/** A number or a web address: information (a phone number, a price, a site's address), not a control's label. */
const INFORMATION = /\p{N}|\p{L}\.\p{L}/u;
/** A copyright notice: the sign and a year, in either order ("© Reuters", a credit, has no year: no notice). */
const COPYRIGHT_NOTICE = /©.*\b(?:19|20)\d\d\b|\b(?:19|20)\d\d\b.*©/u;
/** A notice is a line, not a paragraph about copyright. */
const MAX_NOTICE_WORDS = 12;

/** The site's copyright line: page furniture, whatever its words and numbers. */
function isCopyrightNotice(text: string): boolean {
  return COPYRIGHT_NOTICE.test(text) && wordCount(text) <= MAX_NOTICE_WORDS;
}

/**
 * In a script whose sentences end with no mark (endsUnmarked), only a control's few words make a
 * label ("แชร์บทความนี้", "อ่านต่อ"), not a short closing sentence ("ขอให้สนุกกับการเดินทาง").
 */
const MAX_UNMARKED_LABEL_WORDS = 3;

function isLabel(block: Element, root: Element): boolean {
  const text = normalized(block);
  if (text === '') return false;
  if (!isCopyrightNotice(text)) {
    if (endsAsSentence(text) || INFORMATION.test(text)) return false;
    const maxWords = endsUnmarked(text) ? MAX_UNMARKED_LABEL_WORDS : MAX_LABEL_WORDS;
    if (wordCount(text) > maxWords) return false;
  }
  if (block.matches(HAS_MEDIA) || block.querySelector(HAS_MEDIA) !== null) return false;
  // A list item, quotation, figure, table or code block is a content context itself (closest() meets it first).
  return !inContentContext(block, root);
}

/** The blocks that hold no other block, in document order. */
function leafBlocks(root: Element): Element[] {
  const blocks = [...root.querySelectorAll(BLOCKS)];
  const parents = new Set<Element>();
  for (const block of blocks) {
    for (let up = block.parentElement; up !== null && up !== root; up = up.parentElement) {
      if (parents.has(up)) break;
      parents.add(up);
    }
  }
  return blocks.filter((block) => !parents.has(block));
}

export function dropTrailingLabels(root: Element): void {
  const blocks = leafBlocks(root);
  let taken = 0;
  for (let i = blocks.length - 1; i >= 0 && taken < MAX_TRAILING_LABELS; i--) {
    const block = blocks[i]!;
    if (normalized(block) === '' && block.querySelector(HAS_MEDIA) === null) continue;
    if (!isLabel(block, root)) return;
    block.remove();
    taken++;
  }
}
