// The UTF-8 size of a string without encoding it: the content limit is checked on strings of up to
// MAX_CONTENT_BYTES (10 MiB by default), where TextEncoder would allocate a full copy to count.

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
