// The words and sentences of a line, as the cleaning rules count and read them: one module, so that
// "at most six words" in one rule counts what "at least four words" counts in another, and so that
// every rule that tells prose from a label or a caption agrees on what ends a sentence, in every
// script. Three questions, three names: how many words a reader reads in a line (wordCount), the
// terms two texts are compared by or a date is counted in (termsOf), and whether a line ends as a
// sentence or as prose (endsAsSentence, endsAsProse). Pure: no DOM.

/** A run between spaces that holds a letter or a digit ("6:45", "U.S.", "don't"); a "|" or "—" between words is none. */
const SPACED_WORD = /\S*[\p{L}\p{N}]\S*/gu;
/** A term: a run of letters and digits ("HS Roundup:" holds "hs" and "roundup"; "2018-02-24" three). */
const TERM = /[\p{L}\p{N}]+/gu;
/**
 * Scripts written without spaces between words (Thai, Lao, Khmer, Myanmar, Chinese, Japanese): a
 * run between spaces there is a phrase or a whole sentence, so its words are the ones a word
 * segmenter (Unicode's word boundaries with the dictionaries of these scripts) finds in it.
 */
const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

let segmenter: Intl.Segmenter | undefined;

/**
 * The words of one run between spaces that holds an unspaced script: each word-like segment written
 * in such a script is a word; segments of a spaced script next to each other ("iPhone", "5G") are
 * one word together, as they would be on their own.
 */
function wordsOfUnspacedRun(run: string): string[] {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const words: string[] = [];
  let spaced = false;
  for (const { segment, isWordLike } of segmenter.segment(run)) {
    if (!isWordLike) continue;
    if (UNSPACED.test(segment)) {
      words.push(segment);
      spaced = false;
    } else if (spaced) words[words.length - 1] += segment;
    else {
      words.push(segment);
      spaced = true;
    }
  }
  return words;
}

/** The words of `text`, as written: runs between spaces, and in scripts written without spaces the words the segmenter finds. */
export function wordsOf(text: string): string[] {
  const runs = text.match(SPACED_WORD) ?? [];
  if (!UNSPACED.test(text)) return runs;
  return runs.flatMap((run) => (UNSPACED.test(run) ? wordsOfUnspacedRun(run) : [run]));
}

/** How many words a reader reads in `text`. */
export const wordCount = (text: string): number => wordsOf(text).length;

/**
 * The terms of `text`, lower-cased: what two texts share, and the parts a date is written in. In a
 * script written without spaces a run of letters is a phrase or a sentence: its terms are its words.
 */
export function termsOf(text: string): string[] {
  const terms = text.toLowerCase().match(TERM) ?? [];
  if (!UNSPACED.test(text)) return terms;
  return terms.flatMap((term) => (UNSPACED.test(term) ? wordsOfUnspacedRun(term) : [term]));
}

/** After the mark, a closing quote or bracket may follow (“… at dawn.”, "(see below.)"). */
const CLOSERS = '[\\p{Pf}\\p{Pe}"\']*$';
/**
 * Marks that end a sentence: Unicode's Sentence_Terminal property (the full stop, question and
 * exclamation marks of every script: `.`, `。`, `？`, `।`, `؟`, `။`, `።`, …) and the ellipsis.
 */
const SENTENCE_END = new RegExp(`[\\p{Sentence_Terminal}…]${CLOSERS}`, 'u');
/** Marks that end a clause leading into more text: a colon or a semicolon, their full-width and Arabic forms. */
const LEAD_IN_END = new RegExp(`[:;：；؛]${CLOSERS}`, 'u');

/** Whether `text` ends as a sentence does ("… at dawn.", "“Who?”", "…है।"); a label ("Contact:", "Back") does not. */
export const endsAsSentence = (text: string): boolean => SENTENCE_END.test(text);

/**
 * Whether `text` ends as running prose does: as a sentence, or as a clause that leads into what
 * follows it ("as shown below:"). A caption names what is shown, or who took it, with neither.
 */
export const endsAsProse = (text: string): boolean => endsAsSentence(text) || LEAD_IN_END.test(text);

/**
 * Scripts whose sentences end with no mark (Thai, Lao: a space ends a sentence): a line there says
 * nothing by its last character, so the rules that read a sentence's end tell prose by its length.
 */
const UNMARKED_SENTENCES = /[\p{Script=Thai}\p{Script=Lao}]/u;

/** Whether `text` is written in a script whose sentences end with no mark, so that endsAsSentence cannot tell. */
export const endsUnmarked = (text: string): boolean => UNMARKED_SENTENCES.test(text);
