import { afterEach, describe, expect, it } from 'vitest';
import { watchMainDocument } from '../../../../src/browser/page/main-document.js';
import { targetGuard } from '../../../../src/guard/policy.js';
import { FakeFrame, FakePage, TARGET_URL } from '../support/fake-page.js';
import { flush, track } from '../support/settle.js';

const GUARDED = { allowPrivateNetwork: false };

function watch(options: { viaProxy?: boolean } = {}) {
  const fake = new FakePage();
  const doc = watchMainDocument(fake.page, targetGuard(GUARDED, options.viaProxy ?? false));
  return { fake, doc };
}

let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

function watched(options?: { viaProxy?: boolean }) {
  const watching = watch(options);
  dispose = watching.doc.dispose;
  return watching;
}

describe('watchMainDocument: commit', () => {
  it('resolves committed when the response arrives before the frame commits', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    fake.respond(fake.startRequest());
    fake.commitFrame(TARGET_URL);
    await flush();
    expect(committed.current.state).toBe('resolved');
  });

  it('resolves committed when the frame commits before puppeteer reports the response', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    const request = fake.startRequest();
    fake.commitFrame(TARGET_URL);
    fake.respond(request);
    await flush();
    expect(committed.current.state).toBe('resolved');
  });

  it('does not resolve committed on the response alone', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    fake.respond(fake.startRequest());
    await flush();
    expect(committed.current.state).toBe('pending');
  });

  it('does not resolve committed on the frame commit alone', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    fake.startRequest();
    fake.commitFrame(TARGET_URL);
    await flush();
    expect(committed.current.state).toBe('pending');
  });

  it('does not take a 3xx with Location as the final response', async () => {
    const { fake, doc } = watched();
    fake.startRequest();
    fake.redirect('https://example.com/next');
    expect(doc.response()).toBeUndefined();
  });

  it('takes the response a redirect led to as the final response', async () => {
    const { fake, doc } = watched();
    fake.startRequest();
    const next = fake.redirect('https://example.com/next', 301);
    const final = fake.respond(next, { status: 200 });
    expect(doc.response()).toBe(final);
  });

  it('does not count a commit of the error page chrome-error://chromewebdata/', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    fake.respond(fake.startRequest());
    fake.commitFrame('chrome-error://chromewebdata/');
    await flush();
    expect(committed.current.state).toBe('pending');
  });

  it('does not count a child frame committing', async () => {
    const { fake, doc } = watched();
    const committed = track(doc.committed);
    fake.respond(fake.startRequest());
    fake.commitFrame('https://ads.example/frame', new FakeFrame('CHILD', fake.main));
    await flush();
    expect(committed.current.state).toBe('pending');
  });

  it('ignores responses to requests that are not the main navigation', async () => {
    const { fake, doc } = watched();
    fake.respond(fake.startSubresource());
    expect(doc.response()).toBeUndefined();
  });
});

describe('watchMainDocument: an error status with no body', () => {
  const EMPTY_ERROR = 'net::ERR_HTTP_RESPONSE_CODE_FAILURE';

  it('resolves emptyErrorResponse, not committed, when Chrome shows its error page for an empty 404', async () => {
    const { fake, doc } = watched();
    const empty = track(doc.emptyErrorResponse);
    const committed = track(doc.committed);
    const request = fake.startRequest();
    fake.respond(request, { status: 404 });
    fake.failRequest(request, EMPTY_ERROR);
    fake.commitErrorPage();
    await flush();
    expect(empty.current.state).toBe('resolved');
    expect(committed.current.state).toBe('pending');
    expect(doc.response()?.status()).toBe(404);
  });

  it('resolves emptyErrorResponse when the failure is reported before puppeteer releases the response', async () => {
    const { fake, doc } = watched();
    const empty = track(doc.emptyErrorResponse);
    const request = fake.startRequest();
    fake.failRequest(request, EMPTY_ERROR);
    await flush();
    expect(empty.current.state).toBe('pending');
    fake.respond(request, { status: 500 });
    await flush();
    expect(empty.current.state).toBe('resolved');
  });

  it('does not resolve emptyErrorResponse for any other failure of the main request', async () => {
    const { fake, doc } = watched();
    const empty = track(doc.emptyErrorResponse);
    const request = fake.startRequest();
    fake.respond(request, { status: 404 });
    fake.failRequest(request, 'net::ERR_CONNECTION_RESET');
    await flush();
    expect(empty.current.state).toBe('pending');
  });

  it("does not resolve emptyErrorResponse after the target's document committed (a later navigation of the page's own)", async () => {
    const { fake, doc } = watched();
    const empty = track(doc.emptyErrorResponse);
    fake.commitDocument();
    const later = fake.startRequest(`${TARGET_URL}later`);
    fake.respond(later, { status: 404 });
    fake.failRequest(later, EMPTY_ERROR);
    await flush();
    expect(empty.current.state).toBe('pending');
  });
});

describe('watchMainDocument: unsupported content', () => {
  it('resolves unsupported for a binary main response, naming its type', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    fake.commitDocument({ headers: { 'content-type': 'image/png' } });
    await flush();
    expect(unsupported.current).toMatchObject({
      state: 'resolved',
      value: "The target's content type image/png is not a page that can be rendered.",
    });
  });

  it('resolves unsupported for a binary seen only in Network.responseReceivedExtraInfo', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    const request = fake.startRequest();
    fake.extraInfo(request, 200, { 'Content-Type': 'application/zip' });
    await flush();
    expect(unsupported.current).toMatchObject({
      state: 'resolved',
      value: "The target's content type application/zip is not a page that can be rendered.",
    });
  });

  it('leaves a response that may be a PDF (its type, a download, a binary) to the request filter, which reads it', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    const request = fake.startRequest();
    fake.extraInfo(request, 200, { 'Content-Type': 'application/pdf' });
    fake.extraInfo(request, 200, { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="a.zip"' });
    fake.extraInfo(request, 200, { 'Content-Type': 'application/octet-stream' });
    await flush();
    expect(unsupported.current.state).toBe('pending');
  });

  it("reports the address space of the final response's raw headers, not a redirect's", async () => {
    const { fake, doc } = watched();
    const space = track(doc.addressSpace);
    const request = fake.startRequest();
    fake.extraInfo(request, 302, { Location: 'https://example.com/next' }, 'Public');
    await flush();
    expect(space.current.state).toBe('pending');
    fake.extraInfo(request, 200, { 'Content-Type': 'application/pdf' }, 'Private');
    await flush();
    expect(space.current).toMatchObject({ state: 'resolved', value: 'Private' });
  });

  it('ignores raw headers of requests other than the main navigation', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    fake.startRequest();
    fake.extraInfo(fake.startSubresource(), 200, { 'content-type': 'application/zip' });
    await flush();
    expect(unsupported.current.state).toBe('pending');
  });

  it('ignores the raw headers of a redirect', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    const request = fake.startRequest();
    fake.extraInfo(request, 302, { Location: 'https://example.com/next', 'Content-Type': 'application/zip' });
    await flush();
    expect(unsupported.current.state).toBe('pending');
  });

  it('resolves unsupported when Chrome reports Page.downloadWillBegin', async () => {
    const { fake, doc } = watched();
    const unsupported = track(doc.unsupported);
    fake.startRequest();
    fake.beginDownload();
    await flush();
    expect(unsupported.current).toMatchObject({ state: 'resolved', value: 'The target is a download.' });
  });
});

describe("watchMainDocument: the document's address", () => {
  it('refuses a main document served from a private address', async () => {
    const { fake, doc } = watched();
    const forbidden = track(doc.forbiddenAddress);
    fake.commitDocument({ ip: '10.0.0.1' });
    await flush();
    expect(forbidden.current).toMatchObject({ state: 'resolved', value: 'private address 10.0.0.1' });
  });

  it('reports a refused address before the commit it arrives with', async () => {
    const { fake, doc } = watched();
    const order: string[] = [];
    void doc.committed.then(() => order.push('committed'));
    void doc.forbiddenAddress.then(() => order.push('forbidden'));
    const request = fake.startRequest();
    fake.commitFrame(TARGET_URL);
    fake.respond(request, { ip: '127.0.0.1' });
    await flush();
    expect(order).toEqual(['forbidden', 'committed']);
  });

  it('does not judge the address of a document that came through an upstream proxy', async () => {
    const { fake, doc } = watched({ viaProxy: true });
    const forbidden = track(doc.forbiddenAddress);
    fake.commitDocument({ ip: '10.0.0.1' });
    await flush();
    expect(forbidden.current.state).toBe('pending');
  });
});

describe('watchMainDocument: lifecycle', () => {
  it("resolves bodyEnded when the main response's request finishes", async () => {
    const { fake, doc } = watched();
    const bodyEnded = track(doc.bodyEnded);
    const { request } = fake.commitDocument();
    fake.finishRequest(request);
    await flush();
    expect(bodyEnded.current.state).toBe('resolved');
  });

  it("resolves bodyEnded when the main response's request fails (a reset, a short body)", async () => {
    const { fake, doc } = watched();
    const bodyEnded = track(doc.bodyEnded);
    const { request } = fake.commitDocument();
    fake.failRequest(request);
    await flush();
    expect(bodyEnded.current.state).toBe('resolved');
  });

  it('does not resolve bodyEnded when another request finishes', async () => {
    const { fake, doc } = watched();
    const bodyEnded = track(doc.bodyEnded);
    fake.commitDocument();
    fake.finishRequest(fake.startSubresource());
    await flush();
    expect(bodyEnded.current.state).toBe('pending');
  });

  it("resolves domContentLoaded on the page's domcontentloaded event", async () => {
    const { fake, doc } = watched();
    const domContentLoaded = track(doc.domContentLoaded);
    fake.fireDomContentLoaded();
    await flush();
    expect(domContentLoaded.current.state).toBe('resolved');
  });

  it("resolves load on the page's load event", async () => {
    const { fake, doc } = watched();
    const load = track(doc.load);
    fake.fireLoad();
    await flush();
    expect(load.current.state).toBe('resolved');
  });

  it('removes every listener it added on dispose', () => {
    const { fake, doc } = watch();
    doc.dispose();
    expect(fake.listeners()).toBe(0);
  });
});
