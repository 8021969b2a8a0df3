// Reading a stream up to a bound: a site's files are read in part, never whole, whatever they claim.
import { joinedBytes } from '../shared/bytes.js';

/** The first `maxBytes` of `stream`, and whether it held more (then the rest is cancelled, unread). */
export async function readUpTo(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: joinedBytes(chunks, total), over: false };
    const room = maxBytes - total;
    chunks.push(value.length > room ? value.subarray(0, room) : value);
    total += Math.min(value.length, room);
    if (value.length > room) {
      await reader.cancel();
      return { bytes: joinedBytes(chunks, total), over: true };
    }
  }
}
