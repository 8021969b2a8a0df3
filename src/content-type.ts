// Which main-document responses the service renders. A browser would download or show a viewer for
// PDFs, images, archives and other binaries; none of that is a page we can return as HTML or
// markdown, so such targets are refused with 502 unsupported_content naming their type.

export type DocumentKind = 'html' | 'json' | 'xml' | 'text';

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

/** The reason a main-document response cannot be rendered, or undefined when it can. */
export function unsupportedContentReason(headers: Record<string, string>): string | undefined {
  const contentType = headers['content-type'];
  if (/^\s*attachment\b/i.test(headers['content-disposition'] ?? '')) {
    return `The target is a download (Content-Disposition: attachment, ${mediaType(contentType) || 'no content type'}).`;
  }
  if (documentKind(contentType) === undefined) {
    return `The target's content type ${mediaType(contentType)} is not a page that can be rendered.`;
  }
  return undefined;
}
