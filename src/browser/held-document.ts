// Holds a main-frame document response whose headers say it may be a PDF (content-type.ts mayBePdf)
// before the browser downloads it or shows a viewer: the request filter's session pauses document
// responses (CDP Fetch, Response stage), and this reads such a body out of the browser and cancels
// the navigation. The body crosses CDP in slices (IO.read of at most READ_SLICE_BYTES, sent as base64:
// 4 MiB on the wire, DESIGN.md "Large pages"); its first bytes decide whether it is a PDF.
import type { CDPSession } from '@cloudflare/puppeteer';
import { hasPdfSignature, unsupportedContentReason } from '../content-type.js';

/** Bytes per IO.read: 3 MiB, which base64 makes 4 MiB on the wire. */
export const READ_SLICE_BYTES = 3 * 1024 * 1024;

export interface HeldDocument {
  /** The response's URL (after redirects), status and headers (names lowercase). */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The Network domain's id of the request (Network.* events name it so). */
  networkId: string;
  /** Reads the body (at most `maxBytes`) and cancels the navigation. */
  read(maxBytes: number): Promise<HeldBody>;
  /** Cancels the navigation without reading. */
  cancel(): void;
}

export type HeldBody = { kind: 'pdf'; bytes: Uint8Array } | { kind: 'not-pdf'; reason: string } | { kind: 'too-large' };

const BASE64_VALUES = (() => {
  const values = new Uint8Array(128);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();

/** CDP's base64 (padded, no line breaks) as bytes: a table walk, where atob would build a string first. */
function decodeBase64(data: string): Uint8Array {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((data.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < data.length; i += 4) {
    const word =
      (BASE64_VALUES[data.charCodeAt(i)]! << 18) |
      (BASE64_VALUES[data.charCodeAt(i + 1)]! << 12) |
      (BASE64_VALUES[data.charCodeAt(i + 2)]! << 6) |
      BASE64_VALUES[data.charCodeAt(i + 3)]!;
    bytes[out++] = word >> 16;
    if (out < bytes.length) bytes[out++] = (word >> 8) & 0xff;
    if (out < bytes.length) bytes[out++] = word & 0xff;
  }
  return bytes;
}

function joined(chunks: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** A body that is not a PDF is refused for what its headers said it was. */
function notPdf(headers: Record<string, string>): HeldBody {
  const reason = unsupportedContentReason(headers) ?? "The target's content is not a page that can be rendered.";
  return { kind: 'not-pdf', reason };
}

/** The document response paused as `requestId` on `session`. */
export function holdDocument(
  session: CDPSession,
  paused: { requestId: string; networkId: string; url: string; status: number; headers: Record<string, string> },
): HeldDocument {
  const { requestId } = paused;
  let settled = false;
  const cancel = () => {
    if (settled) return;
    settled = true;
    // The page may already be closing; a failed cancel changes nothing then.
    void session.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' }).catch(() => undefined);
  };
  const read = async (maxBytes: number): Promise<HeldBody> => {
    const declared = Number(paused.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      cancel();
      return { kind: 'too-large' };
    }
    const { stream } = await session.send('Fetch.takeResponseBodyAsStream', { requestId });
    try {
      const chunks: Uint8Array[] = [];
      let length = 0;
      let signatureChecked = false;
      for (;;) {
        const slice = await session.send('IO.read', { handle: stream, size: READ_SLICE_BYTES });
        const bytes = slice.base64Encoded ? decodeBase64(slice.data) : new TextEncoder().encode(slice.data);
        length += bytes.length;
        if (length > maxBytes) return { kind: 'too-large' };
        chunks.push(bytes);
        if (!signatureChecked && (length >= 1024 || slice.eof)) {
          signatureChecked = true;
          if (!hasPdfSignature(joined(chunks, length))) return notPdf(paused.headers);
        }
        if (slice.eof) return { kind: 'pdf', bytes: joined(chunks, length) };
      }
    } finally {
      void session.send('IO.close', { handle: stream }).catch(() => undefined);
      cancel();
    }
  };
  return { url: paused.url, status: paused.status, headers: paused.headers, networkId: paused.networkId, read, cancel };
}
