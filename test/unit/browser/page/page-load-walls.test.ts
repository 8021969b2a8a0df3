import { describe, expect, it } from 'vitest';
import type { RenderedPage } from '../../../../src/browser/render-call.js';
import type { PageReply } from '../../../../src/in-page/protocol.js';
import { type DocumentInit, type FakePage, htmlReply } from '../support/fake-page.js';
import { load, outcome } from '../support/load-harness.js';
import { at, type Settled, useFakeClock } from '../support/settle.js';

// loadPage and bot walls (docs/api.md "Blocked pages"): the page read is judged, a challenge is waited
// through while the budget lasts (a reload or a redirect of its own leads to the page), a CAPTCHA or
// block page is taken at once, and a wall read for its main content is read again whole.
useFakeClock();

const CHALLENGE = { status: 403, headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge', server: 'cloudflare' } };
const CHALLENGE_HTML = '<!DOCTYPE html><html><body><div id="challenge"></div></body></html>';
const PAGE_HTML = '<!DOCTYPE html><html><body><h1>The page</h1></body></html>';

/** At `ms` the main document answers, commits and is parsed (DOMContentLoaded) at once. */
async function documentAt(fake: FakePage, ms: number, init: DocumentInit = {}): Promise<void> {
  await at(ms);
  fake.commitDocument(init);
  fake.fireDomContentLoaded();
}

function page(result: { current: Settled<RenderedPage> }): RenderedPage {
  if (result.current.state !== 'resolved') throw new Error(`the load is ${result.current.state}`);
  return result.current.value;
}

describe('loadPage: a challenge is waited through', () => {
  it('answers the page a challenge reloads into, when the wait event had fired before (not blocked)', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    fake.readPage.mockResolvedValueOnce(htmlReply(CHALLENGE_HTML)).mockResolvedValueOnce(htmlReply(PAGE_HTML));
    await at(100);
    fake.commitDocument(CHALLENGE);
    await at(150);
    fake.fireDomContentLoaded();
    // The challenge sets its cookie and reloads 1.5 s later: the same URL, now the page.
    await at(1650);
    fake.commitDocument({ status: 200 });
    await at(1700);
    expect(outcome(result)).toBe('pending');
    fake.fireDomContentLoaded();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1700 });
    const answer = page(result);
    expect(answer.blocked).toBeUndefined();
    expect(answer.content).toBe(PAGE_HTML);
    expect(answer.status).toBe(200);
    expect(fake.readPage).toHaveBeenCalledTimes(2);
  });

  it('answers the page a challenge redirects to, with its final URL', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    fake.readPage.mockResolvedValueOnce(htmlReply(CHALLENGE_HTML));
    await documentAt(fake, 100, CHALLENGE);
    await documentAt(fake, 1200, { url: 'https://example.com/cleared', status: 200 });
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1200 });
    expect(page(result)).toMatchObject({ finalUrl: 'https://example.com/cleared', status: 200 });
    expect(page(result).blocked).toBeUndefined();
  });

  it('takes a challenge that never lets the page through at the budget: blocked, X-Wait-Result timeout, read again as it stands', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded', waitMs: 3000 });
    fake.readPage.mockResolvedValue(htmlReply(CHALLENGE_HTML));
    await documentAt(fake, 100, CHALLENGE);
    await at(2999);
    expect(outcome(result)).toBe('pending');
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 3000 });
    expect(page(result)).toMatchObject({ status: 403, blocked: { vendor: 'cloudflare', kind: 'challenge' } });
    expect(fake.readPage).toHaveBeenCalledTimes(2);
    // The watch for the next document is let go with the others: nothing is left listening.
    expect(fake.listeners()).toBe(0);
  });

  it('follows a challenge through two steps (a challenge that leads to another) within the budget', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    fake.readPage.mockResolvedValueOnce(htmlReply(CHALLENGE_HTML)).mockResolvedValueOnce(htmlReply(CHALLENGE_HTML));
    await documentAt(fake, 100, CHALLENGE);
    await documentAt(fake, 1000, CHALLENGE);
    await documentAt(fake, 2000, { status: 200 });
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 2000 });
    expect(page(result).blocked).toBeUndefined();
    expect(fake.readPage).toHaveBeenCalledTimes(3);
    expect(fake.listeners()).toBe(0);
  });
});

describe('loadPage: walls that do not go away by themselves', () => {
  const captchaWall: PageReply = {
    kind: 'html',
    html: '<!DOCTYPE html><html><body><div class="g-recaptcha"></div></body></html>',
    wallSignals: { markers: ['recaptcha'], frameMarkers: [], textLength: 40, formFields: 0 },
  };

  it('takes a CAPTCHA wall at once: no wait for a navigation, blocked', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    fake.readPage.mockResolvedValue(captchaWall);
    await documentAt(fake, 200);
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 200 });
    expect(page(result).blocked).toEqual({ vendor: 'captcha', kind: 'captcha' });
  });

  it('takes an ordinary page as before: one read, nothing said of walls', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    await documentAt(fake, 100, { status: 403, headers: { server: 'cloudflare' } });
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 100 });
    expect('blocked' in page(result)).toBe(false);
    expect(fake.readPage).toHaveBeenCalledTimes(1);
  });

  it('reads a wall whole when its main content was asked for (there is none to find): X-Content-Mode full', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded', format: 'markdown', mainContent: true });
    fake.readPage
      .mockResolvedValueOnce({ ...captchaWall, kind: 'markdown', markdown: 'Please verify', contentMode: 'main' })
      .mockResolvedValueOnce({ kind: 'markdown', markdown: '# Example\n\nPlease verify' });
    await documentAt(fake, 100);
    await at(10_000);
    expect(page(result)).toMatchObject({ content: '# Example\n\nPlease verify', contentMode: 'full', blocked: { vendor: 'captcha' } });
    const [first, second] = fake.readPage.mock.calls.map(([request]) => request);
    expect(first).toMatchObject({ mode: 'markdown', mainContent: true });
    expect(second).toMatchObject({ mode: 'markdown', mainContent: false });
  });

  it('judges an empty refusal by its headers alone (Kasada answers 429 with its headers)', async () => {
    const { fake, result } = load();
    await at(100);
    const request = fake.startRequest();
    fake.respond(request, { status: 429, headers: { 'x-kpsdk-ct': 'token' } });
    fake.failRequest(request, 'net::ERR_HTTP_RESPONSE_CODE_FAILURE');
    await at(10_000);
    expect(page(result)).toMatchObject({ status: 429, blocked: { vendor: 'kasada', kind: 'challenge' } });
  });
});
