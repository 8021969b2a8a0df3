// A fake puppeteer Page for unit tests of the browser side: an event emitter the test drives, with a
// CDP session reachable through `_client()` as cdp-internals.ts reads it (the frames, requests and
// responses it emits are in fake-network.ts). Helpers play out the event sequences Chrome produces
// (a document committing, a navigation failing, a download), so tests read as what the page did;
// everything is cast to puppeteer's types only at `fake.page`.
import type { PageReply, PageRequest } from '../../../../src/in-page/protocol.js';
import type { Page } from '@cloudflare/puppeteer';
import { vi } from 'vitest';
import { Emitter, FakeCdpSession, FakeFrame, FakeRequest, FakeResponse, type FakeResponseInit } from './fake-network.js';

/** The in-page script's answer to an html read. */
export const htmlReply = (html: string): PageReply => ({ kind: 'html', html });

export { FakeCdpSession, FakeFrame, FakeRequest, FakeResponse, type FakeResponseInit };

export type PageEvent =
  | 'request'
  | 'response'
  | 'requestfinished'
  | 'requestfailed'
  | 'framenavigated'
  | 'frameattached'
  | 'framedetached'
  | 'domcontentloaded'
  | 'load'
  | 'dialog'
  | 'error'
  | 'close';

export interface DocumentInit extends FakeResponseInit {
  url?: string;
}

export const TARGET_URL = 'https://example.com/';

export class FakePage extends Emitter<PageEvent> {
  /** The session `_client()` returns: puppeteer's own, where Network.* and Page.* events arrive. */
  readonly session = new FakeCdpSession();
  /** Sessions opened with createCDPSession(), in order. */
  readonly openedSessions: FakeCdpSession[] = [];
  readonly main = new FakeFrame('MAIN', null);
  readonly gotoCalls: { url: string; options: unknown }[] = [];
  /** The in-page script's answer to a read; by default the HTML of a small document. */
  readonly readPage = vi.fn<(request: PageRequest) => Promise<PageReply>>(async () =>
    htmlReply('<!DOCTYPE html><html><body>ok</body></html>'),
  );
  /** The main-document navigation request most recently started. */
  navigation?: FakeRequest;
  closed = false;
  private nextId = 1;
  private settleGoto?: { resolve: () => void; reject: (error: Error) => void };

  constructor() {
    super();
    this.main.session = this.session;
    // The page is read in an isolated world through CDP; the read answers with readPage()'s value,
    // whole, as a reply that fits one slice comes (isolated-world.ts callInWorldSliced).
    this.session.answer = (method, params) => {
      if (method === 'Page.createIsolatedWorld') return Promise.resolve({ executionContextId: 7 });
      if (method !== 'Runtime.callFunctionOn') return undefined;
      const request = (params as { arguments: [{ value: PageRequest }] }).arguments[0].value;
      return this.readPage(request).then((value) => ({ result: { value: { whole: value } } }));
    };
  }

  /** This fake as the puppeteer Page the code under test takes. */
  get page(): Page {
    return this as unknown as Page;
  }

  /** Every listener on the page and on its CDP session. */
  listeners(): number {
    return this.listenerCount() + this.session.listenerCount();
  }

  goto(url: string, options?: unknown): Promise<null> {
    this.gotoCalls.push({ url, options });
    return new Promise<null>((resolve, reject) => (this.settleGoto = { resolve: () => resolve(null), reject }));
  }

  url(): string {
    return this.main.url();
  }

  mainFrame(): FakeFrame {
    return this.main;
  }

  /** Every frame of the page: the main one and those a test attached. */
  frames(): FakeFrame[] {
    return [this.main, ...this.attached];
  }

  /** Frames attached so far (attachFrame). */
  readonly attached: FakeFrame[] = [];

  /** A frame attaches, with the CDP session of its own target (an out-of-process frame's). */
  attachFrame(id: string, session = new FakeCdpSession()): FakeFrame {
    const frame = new FakeFrame(id, this.main);
    frame.session = session;
    this.attached.push(frame);
    this.emit('frameattached', frame);
    return frame;
  }

  isClosed(): boolean {
    return this.closed;
  }

  async createCDPSession(): Promise<FakeCdpSession> {
    const session = new FakeCdpSession();
    this.openedSessions.push(session);
    return session;
  }

  _client(): FakeCdpSession {
    return this.session;
  }

  /** A request starts: the main document's by default, or any other with `navigation: false`. */
  startRequest(
    url = TARGET_URL,
    { navigation = true, frame = this.main, id = `R${this.nextId++}`, resourceType = undefined as string | undefined } = {},
  ): FakeRequest {
    const request = new FakeRequest(id, url, frame, navigation, resourceType);
    if (navigation && frame === this.main) this.navigation = request;
    this.emit('request', request);
    return request;
  }

  /** A subresource request (a script unless told) starts in the main frame. */
  startSubresource(url = `${TARGET_URL}asset-${this.nextId}.js`, resourceType = 'script'): FakeRequest {
    return this.startRequest(url, { navigation: false, resourceType });
  }

  respond(request: FakeRequest, init: FakeResponseInit = {}): FakeResponse {
    const response = new FakeResponse(request, init);
    this.emit('response', response);
    return response;
  }

  /** A frame commits a new document at `url`: puppeteer's event, then the raw CDP one. */
  commitFrame(url: string, frame: FakeFrame = this.main): void {
    frame.moveTo(url);
    this.emit('framenavigated', frame);
    const parent = frame.parentFrame();
    this.session.emit('Page.frameNavigated', { frame: { id: frame._id, url, ...(parent ? { parentId: parent._id } : {}) } });
  }

  /** A child frame is taken out of the page (its iframe removed): puppeteer's event. */
  detachFrame(frame: FakeFrame): void {
    this.emit('framedetached', frame);
  }

  /** The main document answers and its frame commits it, in the order Chrome usually reports them. */
  commitDocument({ url = TARGET_URL, ...init }: DocumentInit = {}): { request: FakeRequest; response: FakeResponse } {
    const request = this.startRequest(url);
    const response = this.respond(request, init);
    this.commitFrame(url);
    return { request, response };
  }

  /** A redirect (3xx with Location) of the main document's request, then the request it leads to (same CDP id). */
  redirect(to: string, status = 302): FakeRequest {
    const from = this.navigation ?? this.startRequest();
    this.respond(from, { status, headers: { location: to } });
    return this.startRequest(to, { id: from.id });
  }

  finishRequest(request: FakeRequest | undefined = this.navigation): void {
    this.emit('requestfinished', request);
  }

  failRequest(request: FakeRequest | undefined = this.navigation, errorText = 'net::ERR_CONNECTION_RESET'): void {
    if (request !== undefined) request.errorText = errorText;
    this.emit('requestfailed', request);
  }

  fireDomContentLoaded(): void {
    this.emit('domcontentloaded');
  }

  fireLoad(): void {
    this.emit('load');
  }

  /** Chrome fails the navigation: its request fails, the error page commits, goto() rejects with the net error. */
  failNavigation(netError: string): void {
    if (this.navigation !== undefined) this.failRequest(this.navigation, netError);
    this.commitErrorPage();
    this.settleGoto?.reject(new Error(`${netError} at ${this.gotoCalls.at(-1)?.url ?? TARGET_URL}`));
  }

  /** Decoded bytes of a request's body arrive (CDP Network.dataReceived); the main document's by default. */
  receiveData(dataLength: number, request: FakeRequest | undefined = this.navigation): void {
    this.session.emit('Network.dataReceived', { requestId: request?.id, dataLength, encodedDataLength: 0 });
  }

  /** The main frame commits Chrome's error page, as it does after a navigation failed. */
  commitErrorPage(): void {
    this.commitFrame('chrome-error://chromewebdata/');
  }

  /** The page sends itself to `url` (a script, a refresh; not goto), which fails: its request fails, the error page commits. */
  navigateItselfAndFail(url: string, netError: string): FakeRequest {
    const request = this.startRequest(url);
    this.failRequest(request, netError);
    this.commitErrorPage();
    return request;
  }

  /** The tab crashes (puppeteer's 'error' event: the renderer died). */
  crash(): void {
    this.emit('error', new Error('Page crashed!'));
  }

  /** goto() resolves (the load event was reached). */
  finishGoto(): void {
    this.settleGoto?.resolve();
  }

  /** Chrome's raw response headers for a request (how a download's headers are seen). */
  extraInfo(request: FakeRequest, statusCode: number, headers: Record<string, string>, resourceIPAddressSpace?: string): void {
    this.session.emit('Network.responseReceivedExtraInfo', { requestId: request.id, statusCode, headers, resourceIPAddressSpace });
  }

  /** Chrome turns the navigation into a download: it aborts it, then says so. */
  beginDownload(): void {
    this.session.emit('Page.downloadWillBegin', { frameId: this.main._id, url: this.navigation?.url() ?? TARGET_URL });
  }
}
