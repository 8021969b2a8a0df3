// UTF-8 facts about strings without encoding them: the size a string takes (the content limit is
// checked on strings of up to MAX_CONTENT_BYTES, where TextEncoder would allocate a full copy to
// count), and a well-formed copy of a string that holds lone surrogates.

/** Bytes `text` takes as UTF-8; a lone surrogate counts as U+FFFD (3 bytes), as TextEncoder writes it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed), so it encodes as
 * valid UTF-8: a page's script can put lone surrogates in the DOM, and strict decoders reject their
 * CESU-style bytes.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}
