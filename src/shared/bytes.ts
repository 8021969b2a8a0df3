// Byte chunks read in pieces (a request body, a PDF read out of the browser) joined into one array.

/** `chunks` one after the other; `length` is their total, which the readers count as they read. */
export function joinedBytes(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
