// What the last mark of a line of text says about it: one module, so that the rules that tell prose
// from a label, a caption or a heading agree on what ends a sentence. Each question keeps its own
// name, because each asks something else: the main-content extract reads labels (endsAsSentence)
// and captions (endsAsProse); the PDF conversion reads where a paragraph may end (endsClosed) and
// what no heading ends with (endsAsRunOn). Pure: no DOM.

/** After the mark, a closing quote or bracket may follow (“… at dawn.”, "(see below.)"). */
const CLOSERS = '[\\p{Pf}\\p{Pe}"\']*$';
/** Marks that end a sentence, in scripts with and without spaces: full stop, exclamation and question marks, an ellipsis. */
const SENTENCE_END = new RegExp(`[.!?…。！？]${CLOSERS}`, 'u');
/** Marks that end a clause leading into more text: a colon or a semicolon, and their full-width forms. */
const LEAD_IN_END = new RegExp(`[:;：；]${CLOSERS}`, 'u');
/** A sentence's or a clause's mark, or a closing quote or bracket on its own (a quotation, a reference). */
const CLOSED_END = /[.!?:;"”)\]]$/u;
/** A full stop, a comma or a semicolon: text that runs on or ends as a sentence. */
const RUN_ON_END = /[.,;]$/;

/** Whether `text` ends as a sentence does ("… at dawn.", "“Who?”"); a label ("Contact:", "Back") does not. */
export const endsAsSentence = (text: string): boolean => SENTENCE_END.test(text);

/**
 * Whether `text` ends as running prose does: as a sentence, or as a clause that leads into what
 * follows it ("as shown below:"). A caption names what is shown, or who took it, with neither.
 */
export const endsAsProse = (text: string): boolean => endsAsSentence(text) || LEAD_IN_END.test(text);

/**
 * Whether a line of a PDF ends closed, so that a paragraph may end after it: with a sentence's or a
 * clause's mark, or a closing quote or bracket. Without one, text across a column or page break
 * carries on.
 */
export const endsClosed = (text: string): boolean => CLOSED_END.test(text);

/** Whether `text` ends as no heading does: with a full stop, a comma or a semicolon. */
export const endsAsRunOn = (text: string): boolean => RUN_ON_END.test(text);
