// Reading a held document out of the browser (held-document.ts), through a fake CDP session that
// serves the body in the slices Chrome's IO.read gives.
import { describe, expect, it } from 'vitest';
import type { CDPSession } from '@cloudflare/puppeteer';
import { holdDocument, READ_SLICE_BYTES } from '../../../../src/browser/page/held-document.js';
import { FakeCdpSession } from '../support/fake-page.js';

const PDF_HEAD = '%PDF-1.7\n';

/** A session whose stream serves `body` in slices of at most the size asked, base64 as Chrome sends them. */
function sessionServing(body: Uint8Array) {
  const session = new FakeCdpSession();
  let offset = 0;
  session.answer = async (method, params) => {
    if (method === 'Fetch.takeResponseBodyAsStream') return { stream: 'S1' };
    if (method !== 'IO.read') return undefined;
    const size = (params as { size: number }).size;
    const slice = body.subarray(offset, offset + size);
    offset += slice.length;
    return { base64Encoded: true, data: Buffer.from(slice).toString('base64'), eof: offset >= body.length };
  };
  return session;
}

const held = (session: FakeCdpSession, headers: Record<string, string> = { 'content-type': 'application/pdf' }) =>
  holdDocument(session as unknown as CDPSession, {
    requestId: 'R1',
    url: 'https://example.com/a.pdf',
    status: 200,
    headers,
  });

const methods = (session: FakeCdpSession) => session.sent.map((s) => s.method);

describe('holdDocument', () => {
  it('reads a PDF in slices of READ_SLICE_BYTES, then closes the stream and cancels the navigation', async () => {
    const body = new Uint8Array(READ_SLICE_BYTES * 2 + 5).fill(32);
    body.set(new TextEncoder().encode(PDF_HEAD));
    const session = sessionServing(body);
    const read = await held(session).read(10 * READ_SLICE_BYTES);
    // Compared as buffers: an element-wise deep equality of 6 MiB takes the test runner seconds.
    expect(read.kind === 'pdf' && Buffer.from(read.bytes).equals(body)).toBe(true);
    expect(methods(session)).toEqual(['Fetch.takeResponseBodyAsStream', 'IO.read', 'IO.read', 'IO.read', 'IO.close', 'Fetch.failRequest']);
    expect(session.sent.filter((s) => s.method === 'IO.read').map((s) => (s.params as { size: number }).size)).toEqual([
      READ_SLICE_BYTES,
      READ_SLICE_BYTES,
      READ_SLICE_BYTES,
    ]);
  });

  it('stops reading once the body passes the bound', async () => {
    const body = new Uint8Array(READ_SLICE_BYTES + 10);
    body.set(new TextEncoder().encode(PDF_HEAD));
    const session = sessionServing(body);
    expect(await held(session).read(READ_SLICE_BYTES)).toEqual({ kind: 'too-large' });
    expect(methods(session)).toEqual(['Fetch.takeResponseBodyAsStream', 'IO.read', 'IO.read', 'IO.close', 'Fetch.failRequest']);
  });

  it('refuses by Content-Length before reading anything', async () => {
    const session = sessionServing(new Uint8Array(0));
    expect(await held(session, { 'content-type': 'application/pdf', 'content-length': '2000' }).read(1000)).toEqual({ kind: 'too-large' });
    expect(methods(session)).toEqual(['Fetch.failRequest']);
  });

  it('refuses a body without the PDF signature for what its headers said it was', async () => {
    const session = sessionServing(new TextEncoder().encode('PK\u0003\u0004 a zip archive'));
    expect(await held(session, { 'content-type': 'application/octet-stream' }).read(1000)).toEqual({
      kind: 'not-pdf',
      reason: "The target's content type application/octet-stream is not a page that can be rendered.",
    });
  });

  it('decodes every byte value, whatever the padding', async () => {
    for (const length of [1024, 1025, 1026]) {
      const body = new Uint8Array(length).map((_, i) => i % 256);
      body.set(new TextEncoder().encode(PDF_HEAD));
      const read = await held(sessionServing(body)).read(4096);
      expect(read.kind === 'pdf' && read.bytes).toEqual(body);
    }
  });

  it('takes a PDF whose signature comes after a few bytes of junk, as readers do', async () => {
    const body = new TextEncoder().encode(`\n\n${PDF_HEAD}1 0 obj`);
    const read = await held(sessionServing(body), { 'content-type': 'application/download' }).read(1000);
    expect(read.kind).toBe('pdf');
  });
});
