import { describe, expect, it } from 'vitest';
import { contentTypeFor, renderContent } from '../../../src/api/output.js';

// What Chrome's DOM looks like for documents it only displays as text.
const chromeText = (text: string) =>
  `<html><head><meta name="color-scheme" content="light dark"></head><body><pre style="word-wrap: break-word; white-space: pre-wrap;">${text}</pre></body></html>`;

describe('renderContent', () => {
  it('returns the serialized DOM unchanged for html', () => {
    const html = '<!DOCTYPE html><html><head></head><body><p>x</p></body></html>';
    expect(renderContent({ html, finalUrl: 'https://e.com/', headers: { 'content-type': 'text/html' } }, 'html')).toBe(html);
  });

  it('converts an HTML page to markdown with links made absolute against the final URL', () => {
    const page = { html: '<h1>T</h1><p><a href="/x">x</a></p>', finalUrl: 'https://e.com/a/b', headers: { 'content-type': 'text/html' } };
    expect(renderContent(page, 'markdown')).toContain('[x](https://e.com/x)');
  });

  it('returns the text of a text/plain document as is, entities decoded', () => {
    const page = {
      html: chromeText('a &lt;b&gt; &amp; *c*\n# d\n'),
      finalUrl: 'https://e.com/t.txt',
      headers: { 'content-type': 'text/plain' },
    };
    expect(renderContent(page, 'markdown')).toBe('a <b> & *c*\n# d\n');
  });

  it('fences JSON, with a fence longer than any backtick run inside', () => {
    const page = { html: chromeText('{"a":"```"}'), finalUrl: 'https://e.com/j', headers: { 'content-type': 'application/json' } };
    expect(renderContent(page, 'markdown')).toBe('````json\n{"a":"```"}\n````\n');
  });

  it('fences XML as xml', () => {
    const page = {
      html: '<?xml version="1.0"?><feed><t>x</t></feed>',
      finalUrl: 'https://e.com/f',
      headers: { 'content-type': 'application/atom+xml' },
    };
    expect(renderContent(page, 'markdown')).toBe('```xml\n<?xml version="1.0"?><feed><t>x</t></feed>\n```\n');
  });

  it('names the raw content types', () => {
    expect(contentTypeFor('html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('markdown')).toBe('text/plain; charset=utf-8');
  });
});
