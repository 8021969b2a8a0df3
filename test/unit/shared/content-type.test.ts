import { describe, expect, it } from 'vitest';
import { documentKind, unsupportedContentReason } from '../../../src/shared/content-type.js';

describe('documentKind', () => {
  it.each([
    ['text/html; charset=utf-8', 'html'],
    ['TEXT/HTML', 'html'],
    ['application/xhtml+xml', 'html'],
    [undefined, 'html'],
    ['application/json', 'json'],
    ['application/ld+json', 'json'],
    ['application/xml', 'xml'],
    ['image/svg+xml', 'xml'],
    ['text/plain', 'text'],
    ['text/markdown', 'text'],
    ['text/csv', 'text'],
    ['application/pdf', undefined],
    ['image/png', undefined],
    ['application/zip', undefined],
    ['application/octet-stream', undefined],
    ['video/mp4', undefined],
  ])('reads %s as %s', (contentType, kind) => {
    expect(documentKind(contentType)).toBe(kind);
  });
});

describe('unsupportedContentReason', () => {
  it('names the content type of a binary', () => {
    expect(unsupportedContentReason({ 'content-type': 'application/pdf' })).toContain('application/pdf');
  });

  it('refuses an attachment even when it is HTML', () => {
    expect(unsupportedContentReason({ 'content-type': 'text/html', 'content-disposition': 'attachment; filename=a.html' })).toContain(
      'download',
    );
  });

  it('accepts inline HTML and plain text', () => {
    expect(unsupportedContentReason({ 'content-type': 'text/html', 'content-disposition': 'inline' })).toBeUndefined();
    expect(unsupportedContentReason({ 'content-type': 'text/plain' })).toBeUndefined();
  });
});
