// What the last mark of a line of a PDF says about it: where a paragraph may end (endsClosed) and
// what no heading ends with (endsAsRunOn). Each question keeps its own name, because each asks
// something else; the main-content extract's own (a sentence's end, prose's end, in every script)
// are in src/main-content/words.ts. Pure: no DOM.

/** A sentence's or a clause's mark, or a closing quote or bracket on its own (a quotation, a reference). */
const CLOSED_END = /[.!?:;"”)\]]$/u;
/** A full stop, a comma or a semicolon: text that runs on or ends as a sentence. */
const RUN_ON_END = /[.,;]$/;

/**
 * Whether a line of a PDF ends closed, so that a paragraph may end after it: with a sentence's or a
 * clause's mark, or a closing quote or bracket. Without one, text across a column or page break
 * carries on.
 */
export const endsClosed = (text: string): boolean => CLOSED_END.test(text);

/** Whether `text` ends as no heading does: with a full stop, a comma or a semicolon. */
export const endsAsRunOn = (text: string): boolean => RUN_ON_END.test(text);
