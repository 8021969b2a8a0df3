// watchMainDocument's failure signals (main-document.ts): the decoded size of the main document as it
// streams in (oversized), Chrome's error page after a real document (errorPage), the last failed
// top-frame navigation, and the net error that cut the final response's body short (bodyFailure).
import { afterEach, describe, expect, it } from 'vitest';
import { watchMainDocument } from '../../../../src/browser/page/main-document.js';
import { targetGuard } from '../../../../src/guard/policy.js';
import { FakeFrame, FakePage, TARGET_URL } from '../support/fake-page.js';
import { flush, track } from '../support/settle.js';

const MAX_DECODED_BYTES = 1000;

let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

function watched() {
  const fake = new FakePage();
  const doc = watchMainDocument(fake.page, targetGuard({ allowPrivateNetwork: false }, false), MAX_DECODED_BYTES);
  dispose = doc.dispose;
  return { fake, doc };
}

describe('watchMainDocument: oversized', () => {
  it("resolves oversized once the main document's decoded bytes pass maxDecodedBytes", async () => {
    const { fake, doc } = watched();
    const oversized = track(doc.oversized);
    fake.commitDocument();
    fake.receiveData(600);
    fake.receiveData(401);
    await flush();
    expect(oversized.current.state).toBe('resolved');
  });

  it('does not resolve oversized while the decoded bytes add up to maxDecodedBytes exactly', async () => {
    const { fake, doc } = watched();
    const oversized = track(doc.oversized);
    fake.commitDocument();
    fake.receiveData(600);
    fake.receiveData(400);
    await flush();
    expect(oversized.current.state).toBe('pending');
  });

  it('does not count the data of requests other than the main navigation', async () => {
    const { fake, doc } = watched();
    const oversized = track(doc.oversized);
    fake.commitDocument();
    fake.receiveData(600);
    fake.receiveData(5000, fake.startSubresource());
    await flush();
    expect(oversized.current.state).toBe('pending');
  });

  it('starts the count over when a new main navigation request starts', async () => {
    const { fake, doc } = watched();
    const oversized = track(doc.oversized);
    fake.commitDocument();
    fake.receiveData(800);
    fake.commitDocument({ url: 'https://example.com/next' });
    fake.receiveData(800);
    await flush();
    expect(oversized.current.state).toBe('pending');
  });
});

describe('watchMainDocument: errorPage', () => {
  it("resolves errorPage when the top frame commits Chrome's error page after a real document", async () => {
    const { fake, doc } = watched();
    const errorPage = track(doc.errorPage);
    fake.commitDocument();
    fake.navigateItselfAndFail('https://example.com/gone', 'net::ERR_CONNECTION_REFUSED');
    await flush();
    expect(errorPage.current.state).toBe('resolved');
  });

  it('does not resolve errorPage for an error page committed by the first navigation', async () => {
    const { fake, doc } = watched();
    const errorPage = track(doc.errorPage);
    fake.navigateItselfAndFail(TARGET_URL, 'net::ERR_NAME_NOT_RESOLVED');
    await flush();
    expect(errorPage.current.state).toBe('pending');
  });

  it('does not resolve errorPage when a child frame commits an error page', async () => {
    const { fake, doc } = watched();
    const errorPage = track(doc.errorPage);
    fake.commitDocument();
    fake.commitFrame('chrome-error://chromewebdata/', new FakeFrame('CHILD', fake.main));
    await flush();
    expect(errorPage.current.state).toBe('pending');
  });
});

describe('watchMainDocument: failedNavigation', () => {
  it('is undefined while no top-frame navigation has failed', () => {
    const { fake, doc } = watched();
    fake.commitDocument();
    expect(doc.failedNavigation()).toBeUndefined();
  });

  it('gives the URL and net error of the last failed top-frame navigation request', () => {
    const { fake, doc } = watched();
    fake.commitDocument();
    fake.navigateItselfAndFail('https://example.com/first', 'net::ERR_NAME_NOT_RESOLVED');
    fake.navigateItselfAndFail('https://example.com/second?x=1', 'net::ERR_CONNECTION_REFUSED');
    expect(doc.failedNavigation()).toEqual({ url: 'https://example.com/second?x=1', errorText: 'net::ERR_CONNECTION_REFUSED' });
  });

  it('does not take a failed subresource for a failed navigation', () => {
    const { fake, doc } = watched();
    fake.commitDocument();
    fake.failRequest(fake.startSubresource(), 'net::ERR_CONNECTION_RESET');
    expect(doc.failedNavigation()).toBeUndefined();
  });

  it("does not take a child frame's failed navigation for the page's", () => {
    const { fake, doc } = watched();
    fake.commitDocument();
    const child = fake.startRequest('https://ads.example/frame', { frame: new FakeFrame('CHILD', fake.main) });
    fake.failRequest(child, 'net::ERR_CONNECTION_REFUSED');
    expect(doc.failedNavigation()).toBeUndefined();
  });
});

describe('watchMainDocument: bodyFailure', () => {
  it("gives the net error when the final response's request fails", () => {
    const { fake, doc } = watched();
    const { request } = fake.commitDocument();
    fake.failRequest(request, 'net::ERR_CONTENT_LENGTH_MISMATCH');
    expect(doc.bodyFailure()).toBe('net::ERR_CONTENT_LENGTH_MISMATCH');
  });

  it("is undefined when the final response's request finished", () => {
    const { fake, doc } = watched();
    const { request } = fake.commitDocument();
    fake.finishRequest(request);
    expect(doc.bodyFailure()).toBeUndefined();
  });

  it('is undefined when only another request failed', () => {
    const { fake, doc } = watched();
    fake.commitDocument();
    fake.failRequest(fake.startSubresource(), 'net::ERR_CONNECTION_RESET');
    expect(doc.bodyFailure()).toBeUndefined();
  });
});
