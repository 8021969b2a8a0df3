// The words of a line, as the cleaning rules count and compare them: one module, so that "at most six
// words" in one rule counts what "at least four words" counts in another. Two questions, two names:
// how many words a reader reads in a line (wordCount), and the terms two texts are compared by, or a
// date is counted in (termsOf). Pure: no DOM.

/** A word as a reader counts it: a run between spaces that holds a letter or a digit ("6:45", "U.S.", "don't"); a "|" or "—" between words is none. */
const WORD = /\S*[\p{L}\p{N}]\S*/gu;
/** A term: a run of letters and digits ("HS Roundup:" holds "hs" and "roundup"; "2018-02-24" three). */
const TERM = /[\p{L}\p{N}]+/gu;

/** The words of `text`, as written. */
export const wordsOf = (text: string): string[] => text.match(WORD) ?? [];

/** How many words a reader reads in `text`. */
export const wordCount = (text: string): number => wordsOf(text).length;

/** The terms of `text`, lower-cased: what two texts share, and the parts a date is written in. */
export const termsOf = (text: string): string[] => text.toLowerCase().match(TERM) ?? [];
