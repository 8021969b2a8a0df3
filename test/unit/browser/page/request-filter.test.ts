// The request filter's answers to password challenges (request-filter.ts), driven through a fake
// page's CDP session: a proxy's challenge gets the proxy's credentials once, a target's never does;
// and the extra headers it adds to the target's own requests alone.
// The same paths run end to end through a real proxy in test/e2e/api/proxies.test.ts.
import { describe, expect, it } from 'vitest';
import { originHeaders } from '../../../../src/browser/page/origin-headers.js';
import { installRequestFilter, type RequestFilterOptions } from '../../../../src/browser/page/request-filter.js';
import { targetGuard } from '../../../../src/guard/policy.js';
import { FakePage } from '../support/fake-page.js';

const CREDENTIALS = { username: 'proxy-user', password: 'proxy-secret' };
const GUARD_OFF = targetGuard({ allowPrivateNetwork: true });

async function filterWith(options: Partial<RequestFilterOptions>) {
  const fake = new FakePage();
  const filter = await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_OFF, ...options });
  const session = fake.openedSessions[0];
  /** Chrome asks about a challenge; the filter's answer. */
  const challenge = (requestId: string, source: 'Server' | 'Proxy') => {
    session?.emit('Fetch.authRequired', { requestId, authChallenge: { source } });
    return session?.sent.filter((s) => s.method === 'Fetch.continueWithAuth').at(-1)?.params;
  };
  return { filter, session, challenge };
}

describe('password challenges', () => {
  it("gives a proxy's first challenge of a request the proxy's credentials, and declines a second", async () => {
    const { challenge } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(challenge('R1', 'Proxy')).toEqual({
      requestId: 'R1',
      authChallengeResponse: { response: 'ProvideCredentials', ...CREDENTIALS },
    });
    expect(challenge('R1', 'Proxy')).toEqual({ requestId: 'R1', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it("declines a target's challenge, even when the page has a proxy's credentials", async () => {
    const { challenge } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(challenge('R2', 'Server')).toEqual({ requestId: 'R2', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it('declines every challenge when the page has no proxy credentials', async () => {
    const { challenge } = await filterWith({ guard: targetGuard({ allowPrivateNetwork: false }) });
    expect(challenge('R3', 'Proxy')).toEqual({ requestId: 'R3', authChallengeResponse: { response: 'CancelAuth' } });
    expect(challenge('R4', 'Server')).toEqual({ requestId: 'R4', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it('pauses every request when a proxy has credentials, since only a paused request reports its challenge', async () => {
    const { session } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(session?.sent.find((s) => s.method === 'Fetch.enable')?.params).toEqual({
      patterns: [
        { urlPattern: '*', requestStage: 'Request' },
        { resourceType: 'Document', requestStage: 'Response' },
      ],
      handleAuthRequests: true,
    });
  });
});

describe('documents that may be PDFs', () => {
  /** Chrome pauses a document response; what the filter sent about it. */
  const respond = (
    session: ReturnType<FakePage['openedSessions']['at']>,
    init: { id: string; frameId: string; status?: number; headers?: Record<string, string> },
  ) => {
    session?.emit('Fetch.requestPaused', {
      requestId: init.id,
      request: { url: `https://example.com/${init.id}` },
      resourceType: 'Document',
      frameId: init.frameId,
      responseStatusCode: init.status ?? 200,
      responseHeaders: Object.entries(init.headers ?? {}).map(([name, value]) => ({ name, value })),
    });
    return session?.sent.filter((s) => (s.params as { requestId?: string } | undefined)?.requestId === init.id).map((s) => s.method);
  };

  it('with nothing else to filter, pauses only document responses', async () => {
    const { session } = await filterWith({});
    expect(session?.sent.find((s) => s.method === 'Fetch.enable')?.params).toEqual({
      patterns: [{ resourceType: 'Document', requestStage: 'Response' }],
      handleAuthRequests: true,
    });
  });

  it("holds the main frame's response whose headers say it may be a PDF, unread", async () => {
    const { filter, session } = await filterWith({});
    expect(respond(session, { id: 'R1', frameId: 'MAIN', headers: { 'Content-Type': 'application/pdf', 'Content-Length': '10' } })).toEqual(
      [],
    );
    const held = await filter.heldDocument;
    expect({ url: held.url, status: held.status, headers: held.headers }).toEqual({
      url: 'https://example.com/R1',
      status: 200,
      headers: { 'content-type': 'application/pdf', 'content-length': '10' },
    });
  });

  it("lets a page, a frame's PDF and a redirect to a PDF go on at once", async () => {
    const { session } = await filterWith({});
    expect(respond(session, { id: 'R2', frameId: 'MAIN', headers: { 'content-type': 'text/html' } })).toEqual(['Fetch.continueRequest']);
    expect(respond(session, { id: 'R3', frameId: 'CHILD', headers: { 'content-type': 'application/pdf' } })).toEqual([
      'Fetch.continueRequest',
    ]);
    expect(
      respond(session, { id: 'R4', frameId: 'MAIN', status: 302, headers: { location: '/a.pdf', 'content-type': 'application/pdf' } }),
    ).toEqual(['Fetch.continueRequest']);
  });

  it('cancels a second main-frame document that may be a PDF: a request takes one document', async () => {
    const { session } = await filterWith({});
    respond(session, { id: 'R5', frameId: 'MAIN', headers: { 'content-type': 'application/octet-stream' } });
    expect(respond(session, { id: 'R6', frameId: 'MAIN', headers: { 'content-type': 'application/pdf' } })).toEqual(['Fetch.failRequest']);
  });
});

describe('responses judged by the address they came from (guard on, no proxy)', () => {
  const GUARD_ON = targetGuard({ allowPrivateNetwork: false });
  /** Chrome pauses a response of the page; what the filter sent about it so far. */
  const pause = (
    session: ReturnType<FakePage['openedSessions']['at']>,
    init: { id: string; networkId: string; frameId?: string; resourceType?: string },
  ) => {
    session?.emit('Fetch.requestPaused', {
      requestId: init.id,
      networkId: init.networkId,
      request: { url: `https://example.com/${init.id}` },
      resourceType: init.resourceType ?? 'Script',
      frameId: init.frameId ?? 'MAIN',
      responseStatusCode: 200,
      responseHeaders: [{ name: 'content-type', value: 'text/javascript' }],
    });
  };
  const sentFor = (session: ReturnType<FakePage['openedSessions']['at']>, id: string) =>
    session?.sent.filter((s) => (s.params as { requestId?: string } | undefined)?.requestId === id).map((s) => s.method);
  const report = (session: { emit(event: string, payload: unknown): void }, requestId: string, space: string) =>
    session.emit('Network.responseReceivedExtraInfo', { requestId, headers: {}, resourceIPAddressSpace: space });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("pauses every response once its headers are in, with the browser's cache off (a cached answer has no address)", async () => {
    const fake = new FakePage();
    await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_ON });
    expect(fake.session.sent).toContainEqual({ method: 'Network.setCacheDisabled', params: { cacheDisabled: true } });
    expect(fake.openedSessions[0]?.sent.find((s) => s.method === 'Fetch.enable')?.params).toEqual({
      patterns: [
        { urlPattern: '*', requestStage: 'Request' },
        { urlPattern: '*', requestStage: 'Response' },
      ],
      handleAuthRequests: true,
    });
  });

  it('fails a response from a loopback address and lets a public one go on, in whichever order the report comes', async () => {
    const fake = new FakePage();
    await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_ON });
    const session = fake.openedSessions[0];
    report(fake.session, 'N1', 'Loopback');
    pause(session, { id: 'R1', networkId: 'N1' });
    pause(session, { id: 'R2', networkId: 'N2' });
    await settle();
    expect(sentFor(session, 'R2')).toEqual([]);
    report(fake.session, 'N2', 'Public');
    await settle();
    expect(sentFor(session, 'R1')).toEqual(['Fetch.failRequest']);
    expect(sentFor(session, 'R2')).toEqual(['Fetch.continueRequest']);
  });

  it('fails a response still waiting for its report when the page closes, and stops listening', async () => {
    const fake = new FakePage();
    await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_ON });
    const session = fake.openedSessions[0];
    pause(session, { id: 'R6', networkId: 'N6' });
    await settle();
    expect(sentFor(session, 'R6')).toEqual([]);
    fake.emit('close');
    await settle();
    expect(sentFor(session, 'R6')).toEqual(['Fetch.failRequest']);
    expect(fake.session.listenerCount()).toBe(0);
  });

  it("hears an out-of-process frame's reports in that frame's own session", async () => {
    const fake = new FakePage();
    await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_ON });
    const session = fake.openedSessions[0];
    const frame = fake.attachFrame('CHILD');
    pause(session, { id: 'R3', networkId: 'N3', frameId: 'CHILD', resourceType: 'Document' });
    report(frame.session!, 'N3', 'Local');
    await settle();
    expect(sentFor(session, 'R3')).toEqual(['Fetch.failRequest']);
  });

  it('leaves the main document to its own address check (main-document.ts), and judges nothing through a proxy', async () => {
    const fake = new FakePage();
    await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_ON });
    const session = fake.openedSessions[0];
    pause(session, { id: 'R4', networkId: 'N4', resourceType: 'Document' });
    expect(sentFor(session, 'R4')).toEqual(['Fetch.continueRequest']);

    const proxied = new FakePage();
    await installRequestFilter(proxied.page, { blockResources: false, guard: targetGuard({ allowPrivateNetwork: false }, true) });
    const proxiedSession = proxied.openedSessions[0];
    expect(proxiedSession?.sent.find((s) => s.method === 'Fetch.enable')?.params).toEqual({
      patterns: [
        { urlPattern: '*', requestStage: 'Request' },
        { resourceType: 'Document', requestStage: 'Response' },
      ],
      handleAuthRequests: true,
    });
    pause(proxiedSession, { id: 'R5', networkId: 'N5' });
    expect(sentFor(proxiedSession, 'R5')).toEqual(['Fetch.continueRequest']);
  });
});

describe('extra headers', () => {
  const SENT = { Accept: '*/*' };
  /** Chrome pauses a request before it is sent; the filter's continuation of it. */
  const request = (session: ReturnType<FakePage['openedSessions']['at']>, id: string, url: string) => {
    session?.emit('Fetch.requestPaused', { requestId: id, request: { url, headers: SENT }, resourceType: 'Script', frameId: 'F' });
    return session?.sent.filter((s) => s.method === 'Fetch.continueRequest' && (s.params as { requestId: string }).requestId === id).at(-1)
      ?.params;
  };
  const rule = originHeaders({ authorization: 'Bearer t' }, 'https://example.com/');

  it('pause nothing more until some are given, then every request', async () => {
    const { filter, session } = await filterWith({ blockResources: true });
    const enables = () =>
      session?.sent.filter((s) => s.method === 'Fetch.enable').map((s) => (s.params as { patterns: object[] }).patterns);
    expect(enables()).toHaveLength(1);
    expect(enables()?.[0]).not.toContainEqual({ urlPattern: '*', requestStage: 'Request' });
    await filter.sendHeaders(rule);
    expect(enables()).toHaveLength(2);
    expect(enables()?.[1]).toContainEqual({ urlPattern: '*', requestStage: 'Request' });
  });

  it("continue a request to the target's origin with them, any other unchanged", async () => {
    const { filter, session } = await filterWith({});
    await filter.sendHeaders(rule);
    expect(request(session, 'R1', 'https://example.com/app.js')).toEqual({
      requestId: 'R1',
      headers: [
        { name: 'Accept', value: '*/*' },
        { name: 'authorization', value: 'Bearer t' },
      ],
    });
    expect(request(session, 'R2', 'https://cdn.example.net/app.js')).toEqual({ requestId: 'R2' });
  });

  it('when the guard already pauses every request, add no pattern of their own', async () => {
    const { filter, session } = await filterWith({ guard: targetGuard({ allowPrivateNetwork: false }) });
    await filter.sendHeaders(rule);
    expect(session?.sent.filter((s) => s.method === 'Fetch.enable')).toHaveLength(1);
    expect(request(session, 'R3', 'https://example.com/a')).toMatchObject({
      headers: expect.arrayContaining([{ name: 'authorization', value: 'Bearer t' }]),
    });
  });
});
