// Which main-document responses the service renders, which it takes the body of to convert (a PDF:
// docs/api.md "Documents (PDF)"), and which it refuses. A browser would download or show a viewer for
// PDFs, images, archives and other binaries; images, archives and the like are no page we can return
// as HTML or markdown, so such targets are refused with 502 unsupported_content naming their type.

export type DocumentKind = 'html' | 'json' | 'xml' | 'text';
/** What an answer was read from (X-Document-Kind): a document the browser renders, or a converted PDF. */
export type AnswerKind = DocumentKind | 'pdf';

/** Types a PDF is served as: its own, and the generic ones of downloads and binaries. */
const PDF_CANDIDATE_TYPES = new Set([
  'application/pdf',
  'application/x-pdf',
  'application/octet-stream',
  'binary/octet-stream',
  'application/download',
  'application/force-download',
]);

/** The media type of a Content-Type header, lowercased, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** How a renderable document is to be read, or undefined when the type is not a renderable document. */
export function documentKind(contentType: string | undefined): DocumentKind | undefined {
  const type = mediaType(contentType);
  // No type at all: Chrome sniffs it, as it would for a person, and renders what it finds.
  if (type === '' || type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/') || type === 'application/javascript' || type === 'application/ecmascript') return 'text';
  return undefined;
}

/**
 * Whether a main-document response may be a PDF, by its headers: its body is then read and its first
 * bytes decide (a PDF starts with `%PDF-`), since downloads and binaries are served under many types.
 */
export function mayBePdf(headers: Record<string, string>): boolean {
  return isAttachment(headers) || PDF_CANDIDATE_TYPES.has(mediaType(headers['content-type']));
}

function isAttachment(headers: Record<string, string>): boolean {
  return /^\s*attachment\b/i.test(headers['content-disposition'] ?? '');
}

/** Whether `bytes` are a PDF's: the `%PDF-` signature, which readers accept within the first 1024 bytes. */
export function hasPdfSignature(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  return head.includes('%PDF-');
}

/** The reason a main-document response cannot be rendered, or undefined when it can. */
export function unsupportedContentReason(headers: Record<string, string>): string | undefined {
  const contentType = headers['content-type'];
  if (isAttachment(headers)) {
    return `The target is a download (Content-Disposition: attachment, ${mediaType(contentType) || 'no content type'}).`;
  }
  if (documentKind(contentType) === undefined) {
    return `The target's content type ${mediaType(contentType)} is not a page that can be rendered.`;
  }
  return undefined;
}
