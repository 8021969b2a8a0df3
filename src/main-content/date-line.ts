// Whether a line of text is a date line — a publication or posting date with at most a few words
// around it — told by its text alone, in any language: a year with a clock, or a date standing alone.
// Pure: no DOM, so the unit tests run it as it is.
import { termsOf } from './words';

/** A date line is short: a date, maybe a clock and a few words ("Posted:", "Updated", a name). */
export const MAX_DATE_LINE_CHARS = 90;
const MAX_DATE_LINE_WORDS = 14;
/** Without a clock, a date line is the date alone ("October 06, 2018"), not a line about dates. */
const MAX_BARE_DATE_WORDS = 4;
const YEAR = /\b(?:19|20)\d\d\b/;
// A clock may run into its "am"/"pm" ("4:20am"): no word boundary after its minutes.
const CLOCK = /\b\d{1,2}:\d{2}(?!\d)/;
// 2018-02-24, 13.11.2019, "Nov 19", "19 November" (any script's month names).
const DAY_AND_MONTH = /\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\p{L}{3,}\.?\s+\d{1,2}\b|\b\d{1,2}\.?\s+\p{L}{3,}/u;

/** A publication or posting date: "Posted: Fri 6:45 PM, Feb 16, 2018", "Nov. 20, 2019 6:02 AM EST", "October 06, 2018". */
export function isDateLine(text: string): boolean {
  const line = text.trim();
  if (line.length === 0 || line.length > MAX_DATE_LINE_CHARS || !YEAR.test(line)) return false;
  // Counted in terms: a date written in digits (2018-02-24) weighs what one written out (Feb 24, 2018) does.
  const words = termsOf(line).length;
  if (words > MAX_DATE_LINE_WORDS) return false;
  return CLOCK.test(line) || (words <= MAX_BARE_DATE_WORDS && DAY_AND_MONTH.test(line));
}

/** A date line that stamps a post (a comment, a review): with its clock. */
export const isStamp = (text: string) => isDateLine(text) && CLOCK.test(text);
