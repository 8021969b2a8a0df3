// Holds a main-frame document response whose headers say it may be a PDF (content-type.ts mayBePdf)
// before the browser downloads it or shows a viewer: the request filter's session pauses document
// responses (CDP Fetch, Response stage), and this reads such a body out of the browser and cancels
// the navigation. The body crosses CDP in slices (IO.read of at most READ_SLICE_BYTES, sent as base64:
// 4 MiB on the wire, docs/api.md "Large pages"); its first bytes decide whether it is a PDF.
import { Buffer } from 'node:buffer';
import type { CDPSession } from '@cloudflare/puppeteer';
import { joinedBytes } from '../../shared/bytes.js';
import { hasPdfSignature, unsupportedContentReason } from '../../shared/content-type.js';

/** Bytes per IO.read: 3 MiB, which base64 makes 4 MiB on the wire. */
export const READ_SLICE_BYTES = 3 * 1024 * 1024;

export interface HeldDocument {
  /** The response's URL (after redirects), status and headers (names lowercase). */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Reads the body (at most `maxBytes`) and cancels the navigation. */
  read(maxBytes: number): Promise<HeldBody>;
  /** Cancels the navigation without reading. */
  cancel(): void;
}

export type HeldBody = { kind: 'pdf'; bytes: Uint8Array } | { kind: 'not-pdf'; reason: string } | { kind: 'too-large' };

/** A body that is not a PDF is refused for what its headers said it was. */
function notPdf(headers: Record<string, string>): HeldBody {
  const reason = unsupportedContentReason(headers) ?? "The target's content is not a page that can be rendered.";
  return { kind: 'not-pdf', reason };
}

/** The document response paused as `requestId` on `session`. */
export function holdDocument(
  session: CDPSession,
  paused: { requestId: string; url: string; status: number; headers: Record<string, string> },
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
        const bytes = slice.base64Encoded ? Buffer.from(slice.data, 'base64') : new TextEncoder().encode(slice.data);
        length += bytes.length;
        if (length > maxBytes) return { kind: 'too-large' };
        chunks.push(bytes);
        if (!signatureChecked && (length >= 1024 || slice.eof)) {
          signatureChecked = true;
          if (!hasPdfSignature(joinedBytes(chunks, length))) return notPdf(paused.headers);
        }
        if (slice.eof) return { kind: 'pdf', bytes: joinedBytes(chunks, length) };
      }
    } finally {
      void session.send('IO.close', { handle: stream }).catch(() => undefined);
      cancel();
    }
  };
  return { url: paused.url, status: paused.status, headers: paused.headers, read, cancel };
}
