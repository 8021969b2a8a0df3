// Bytes: chunks read in pieces (a request body, a PDF read out of the browser) joined into one array,
// and the bytes of a base64 text.

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

/** The bytes a base64 text holds (a screenshot answered raw). */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
