import { describe, expect, it } from 'vitest';
import { contentTypeFor, renderContent } from '../../../src/api/output.js';

// What Chrome's DOM looks like for documents it only displays as text.
const chromeText = (text: string) =>
  `<html><head><meta name="color-scheme" content="light dark"></head><body><pre style="word-wrap: break-word; white-space: pre-wrap;">${text}</pre></body></html>`;

describe('renderContent', () => {
  it('returns the serialized DOM unchanged for html', () => {
    const html = '<!DOCTYPE html><html><head></head><body><p>x</p></body></html>';
    expect(renderContent({ content: html, form: 'html', headers: { 'content-type': 'text/html' } }, 'html')).toBe(html);
  });

  it('returns the markdown the page made unchanged', () => {
    const markdown = '# T\n\n[x](https://e.com/x)\n';
    expect(renderContent({ content: markdown, form: 'markdown', headers: { 'content-type': 'text/html' } }, 'markdown')).toBe(markdown);
  });

  it('refuses an HTML page that reached it unconverted for markdown', () => {
    const page = { content: '<h1>T</h1>', form: 'html' as const, headers: { 'content-type': 'text/html' } };
    expect(() => renderContent(page, 'markdown')).toThrow('an HTML page came back as html for markdown output');
  });

  it('returns the text of a text/plain document as is, entities decoded', () => {
    const page = {
      content: chromeText('a &lt;b&gt; &amp; *c*\n# d\n'),
      form: 'html' as const,
      headers: { 'content-type': 'text/plain' },
    };
    expect(renderContent(page, 'markdown')).toBe('a <b> & *c*\n# d\n');
  });

  it('fences JSON, with a fence longer than any backtick run inside', () => {
    const page = { content: chromeText('{"a":"```"}'), form: 'html' as const, headers: { 'content-type': 'application/json' } };
    expect(renderContent(page, 'markdown')).toBe('````json\n{"a":"```"}\n````\n');
  });

  it('fences XML as xml', () => {
    const page = {
      content: '<?xml version="1.0"?><feed><t>x</t></feed>',
      form: 'html' as const,
      headers: { 'content-type': 'application/atom+xml' },
    };
    expect(renderContent(page, 'markdown')).toBe('```xml\n<?xml version="1.0"?><feed><t>x</t></feed>\n```\n');
  });

  it('names the raw content types', () => {
    expect(contentTypeFor('html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('markdown')).toBe('text/plain; charset=utf-8');
  });
});
