import { describe, expect, it, vi } from 'vitest';
import { readBoundMs } from '../../../../src/browser/read/serialize.js';
import { TARGET_URL, htmlReply } from '../support/fake-page.js';
import { load, OPTIONS, outcome } from '../support/load-harness.js';
import { at, useFakeClock } from '../support/settle.js';

// The waiting between commit and serialization is in page-load-waiting.test.ts.
useFakeClock();

describe('loadPage: navigation', () => {
  it('returns the committed document with its final response', async () => {
    const { fake, result } = load();
    await at(100);
    fake.commitDocument({ status: 201, headers: { 'content-type': 'text/html', 'x-test': '1' } });
    await at(300);
    fake.fireDomContentLoaded();
    await at(400);
    expect(result.current).toEqual({
      state: 'resolved',
      at: 300,
      value: {
        content: '<!DOCTYPE html><html><body>ok</body></html>',
        form: 'html',
        finalUrl: TARGET_URL,
        status: 201,
        headers: { 'content-type': 'text/html', 'x-test': '1' },
        waitResult: 'event',
        documentKind: 'html',
      },
    });
  });

  it('answers unsupported_content when the main response is a binary', async () => {
    const { fake, result } = load();
    await at(100);
    fake.commitDocument({ headers: { 'content-type': 'image/png' } });
    await at(200);
    expect(outcome(result)).toEqual({ error: 'unsupported_content', status: 502, at: 100 });
  });

  it('answers 403 forbidden_target when the request filter refused the navigation', async () => {
    const { forbid, result } = load();
    await at(100);
    forbid('loopback address');
    await at(200);
    expect(outcome(result)).toEqual({ error: 'forbidden_target', status: 403, at: 100 });
  });

  it('answers 403 forbidden_target when the document came from a forbidden address', async () => {
    const { fake, result } = load();
    await at(100);
    fake.commitDocument({ ip: '10.0.0.1' });
    await at(200);
    expect(outcome(result)).toEqual({ error: 'forbidden_target', status: 403, at: 100 });
  });

  it('answers target_unreachable when goto fails with a net error', async () => {
    const { fake, result } = load();
    await at(100);
    fake.failNavigation('net::ERR_CONNECTION_REFUSED');
    await at(200);
    expect(outcome(result)).toEqual({ error: 'target_unreachable', status: 502, at: 100 });
  });

  it('answers proxy_error when goto fails with a connection error through a proxy', async () => {
    const { fake, result } = load({}, { proxyName: 'resi' });
    await at(100);
    fake.failNavigation('net::ERR_CONNECTION_REFUSED');
    await at(200);
    expect(outcome(result)).toEqual({ error: 'proxy_error', status: 502, at: 100 });
  });

  it('answers target_timeout when goto fails with net::ERR_TIMED_OUT', async () => {
    const { fake, result } = load();
    await at(100);
    fake.failNavigation('net::ERR_TIMED_OUT');
    await at(200);
    expect(outcome(result)).toEqual({ error: 'target_timeout', status: 504, at: 100 });
  });

  it('answers unsupported_content when an aborted navigation turns out to be a download', async () => {
    const { fake, result } = load();
    await at(100);
    fake.startRequest();
    fake.failNavigation('net::ERR_ABORTED');
    await at(200);
    fake.beginDownload();
    await at(1000);
    expect(outcome(result)).toEqual({ error: 'unsupported_content', status: 502, at: 200 });
  });

  it('answers target_unreachable 250 ms after an aborted navigation that is no download', async () => {
    const { fake, result } = load();
    await at(100);
    fake.failNavigation('net::ERR_ABORTED');
    await at(1000);
    expect(outcome(result)).toEqual({ error: 'target_unreachable', status: 502, at: 350 });
  });

  it('answers 504 target_timeout when nothing commits within navigationTimeoutMs', async () => {
    const { fake, result } = load();
    await at(100);
    fake.startRequest();
    await at(40_000);
    expect(outcome(result)).toEqual({ error: 'target_timeout', status: 504, at: 30_000 });
  });

  it("answers proxy_error when the proxy's 407 is shown as the page", async () => {
    const { fake, result } = load({}, { proxyName: 'resi' });
    await at(100);
    fake.commitDocument({ status: 407 });
    await at(200);
    expect(outcome(result)).toEqual({ error: 'proxy_error', status: 502, at: 100 });
  });
});

describe('loadPage: serializing', () => {
  it('asks the page for the markdown of an HTML document when markdown is wanted', async () => {
    const { fake, result } = load({ format: 'markdown', maxContentBytes: 1000 });
    fake.readPage.mockResolvedValue({ kind: 'markdown', markdown: '# Made in the page\n' });
    await at(100);
    fake.commitDocument({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    fake.fireDomContentLoaded();
    await at(200);
    expect(fake.readPage.mock.calls).toEqual([[{ mode: 'markdown', mainContent: false, maxChars: 1000, maxFrames: 50, maxFrameDepth: 3 }]]);
    expect(result.current.state === 'resolved' && [result.current.value.content, result.current.value.form]).toEqual([
      '# Made in the page\n',
      'markdown',
    ]);
  });

  it('reads a JSON document as the browser holds it when markdown is wanted (the Worker fences its text)', async () => {
    const { fake, result } = load({ format: 'markdown', maxContentBytes: 1000 });
    await at(100);
    fake.commitDocument({ status: 200, headers: { 'content-type': 'application/json' } });
    fake.fireDomContentLoaded();
    await at(200);
    expect(fake.readPage.mock.calls).toEqual([[{ mode: 'html', maxChars: 1000 }]]);
    expect(result.current.state === 'resolved' && result.current.value.form).toBe('html');
  });

  it('answers content_too_large when the content exceeds maxContentBytes in UTF-8', async () => {
    const { fake, result } = load({ maxContentBytes: 1000 });
    fake.readPage.mockResolvedValue(htmlReply(`<html>${'é'.repeat(600)}</html>`));
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(200);
    expect(outcome(result)).toEqual({ error: 'content_too_large', status: 502, at: 100 });
  });

  it('answers content_too_large when the page refuses an oversized DOM', async () => {
    const { fake, result } = load({ maxContentBytes: 1000 });
    fake.readPage.mockResolvedValue({ kind: 'too-large' });
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(200);
    expect(outcome(result)).toEqual({ error: 'content_too_large', status: 502, at: 100 });
  });

  it("answers target_timeout at the read bound (the request's own budget) after a read that never settles", async () => {
    const { fake, result } = load();
    fake.readPage.mockReturnValue(new Promise(() => undefined));
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(120_000);
    expect(outcome(result)).toEqual({ error: 'target_timeout', status: 504, at: 100 + readBoundMs(OPTIONS) });
  });

  it('gives a read as long as the waiting budget when that is the longer one', async () => {
    const { fake, result } = load({ waitMs: 50_000, navigationTimeoutMs: 20_000 });
    fake.readPage.mockReturnValue(new Promise(() => undefined));
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(120_000);
    expect(outcome(result)).toEqual({ error: 'target_timeout', status: 504, at: 100 + 50_000 });
  });

  it('reads the new document when the page navigated itself during the read', async () => {
    const { fake, result } = load();
    fake.readPage
      .mockRejectedValueOnce(new Error('Execution context was destroyed, most likely because of a navigation.'))
      .mockResolvedValueOnce(htmlReply('<html><body>new</body></html>'));
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(1000);
    expect(result.current.state === 'resolved' && result.current.value.content).toBe('<html><body>new</body></html>');
  });
});

describe('loadPage: cleanup', () => {
  it('leaves no timer pending when it returns', async () => {
    const { fake, result } = load({ waitEvent: 'networkIdle' });
    await at(100);
    fake.commitDocument();
    fake.finishRequest();
    await at(4800);
    // The network's quiet timer is running when the budget ends.
    fake.fireDomContentLoaded();
    await at(5000);
    expect({ outcome: outcome(result), timers: vi.getTimerCount() }).toEqual({ outcome: { waitResult: 'timeout', at: 5000 }, timers: 0 });
  });

  it('leaves no timer pending when it throws', async () => {
    const { fake, result } = load();
    await at(100);
    fake.failNavigation('net::ERR_NAME_NOT_RESOLVED');
    await at(100);
    expect({ outcome: outcome(result), timers: vi.getTimerCount() }).toEqual({
      outcome: { error: 'target_unreachable', status: 502, at: 100 },
      timers: 0,
    });
  });

  it('removes its listeners from the page and its session when it returns', async () => {
    const { fake, result } = load();
    await at(100);
    fake.commitDocument();
    fake.fireDomContentLoaded();
    await at(200);
    expect({ state: result.current.state, listeners: fake.listeners() }).toEqual({ state: 'resolved', listeners: 0 });
  });

  it('removes its listeners from the page and its session when it throws', async () => {
    const { fake, result } = load();
    await at(40_000);
    expect({ state: result.current.state, listeners: fake.listeners() }).toEqual({ state: 'rejected', listeners: 0 });
  });
});
