// What ends loadPage at once whatever phase it is in (page-failures.ts): the tab crashing, the main
// document streaming past maxContentBytes, the page committing Chrome's error page after its own failed
// navigation; and a document whose body failed (page-load.ts). Each leaves no timer and no listener.
import { describe, expect, it, vi } from 'vitest';
import { failure, load, outcome } from '../support/load-harness.js';
import { at, useFakeClock } from '../support/settle.js';
import { htmlReply } from '../support/fake-page.js';

useFakeClock();

const CRASHED = expect.stringContaining('crashed its browser tab');

async function crashDuringNavigation() {
  const loading = load();
  await at(100);
  loading.fake.startRequest();
  loading.fake.crash();
  await at(200);
  return loading;
}

async function crashDuringWait() {
  const loading = load({ waitEvent: 'load' });
  await at(100);
  loading.fake.commitDocument();
  await at(1000);
  loading.fake.crash();
  await at(2000);
  return loading;
}

async function crashDuringSerialization() {
  const loading = load();
  loading.fake.readPage.mockReturnValue(new Promise(() => undefined));
  await at(100);
  loading.fake.commitDocument();
  loading.fake.fireDomContentLoaded();
  await at(2000);
  loading.fake.crash();
  await at(3000);
  return loading;
}

/** A read that runs long, as a slow machine or a renderer running out of memory makes it, then the crash. */
async function crashLateInALongRead() {
  const loading = load();
  loading.fake.readPage.mockReturnValue(new Promise(() => undefined));
  await at(100);
  loading.fake.commitDocument();
  loading.fake.fireDomContentLoaded();
  await at(25_000);
  loading.fake.crash();
  await at(26_000);
  return loading;
}

/** The tab crashes while every read fails as calls into a document that has gone do (read again). */
async function crashWhileReadingAgain() {
  const loading = load();
  loading.fake.readPage.mockImplementation(async () => {
    throw new Error('Cannot find context with specified id');
  });
  await at(100);
  loading.fake.commitDocument();
  loading.fake.fireDomContentLoaded();
  await at(1500);
  loading.fake.crash();
  await at(2000);
  return loading;
}

/** The main document is held as a PDF, and the tab crashes while its body is read out (after the wait for its address). */
async function crashWhileReadingAPdf() {
  const loading = load();
  await at(100);
  // Its raw headers came from a public address: the guard lets the PDF be read.
  const request = loading.fake.startRequest();
  loading.fake.extraInfo(request, 200, { 'content-type': 'application/pdf' }, 'Public');
  loading.hold({
    url: 'https://example.com/a.pdf',
    status: 200,
    headers: { 'content-type': 'application/pdf' },
    read: () => new Promise(() => undefined),
    cancel: () => undefined,
  });
  await at(3000);
  loading.fake.crash();
  await at(4000);
  return loading;
}

async function oversizedDocument() {
  const loading = load({ waitEvent: 'load', maxContentBytes: 1000 });
  await at(100);
  loading.fake.commitDocument();
  await at(200);
  loading.fake.receiveData(600);
  await at(300);
  loading.fake.receiveData(600);
  await at(400);
  return loading;
}

async function ownNavigationToUnreachableUrl() {
  const loading = load({ waitEvent: 'load' });
  await at(100);
  loading.fake.commitDocument();
  await at(500);
  loading.fake.navigateItselfAndFail('http://127.0.0.1:9/gone?token=secret', 'net::ERR_CONNECTION_REFUSED');
  await at(600);
  return loading;
}

/** The body fails at 200; the page then serializes to `html` at the budget (5000). */
async function bodyFailedAndSerializedTo(html: string) {
  const loading = load({ waitEvent: 'load' });
  loading.fake.readPage.mockResolvedValue(htmlReply(html));
  await at(100);
  const { request } = loading.fake.commitDocument();
  await at(200);
  loading.fake.failRequest(request, 'net::ERR_CONNECTION_RESET');
  await at(10_000);
  return loading;
}

const bodyFailedWithNoDocument = () => bodyFailedAndSerializedTo('');
const bodyFailedWithContent = () => bodyFailedAndSerializedTo('<html><head></head><body><h1>Partial</h1></body></html>');

describe('loadPage: the tab crashing', () => {
  it('answers 502 target_unreachable saying the tab crashed, at once, when it crashes during navigation', async () => {
    const { result } = await crashDuringNavigation();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 100 });
  });

  it('answers 502 target_unreachable saying the tab crashed, at once, when it crashes during the wait', async () => {
    const { result } = await crashDuringWait();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 1000 });
  });

  it('answers 502 target_unreachable saying the tab crashed, at once, when it crashes during serialization', async () => {
    const { result } = await crashDuringSerialization();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 2000 });
  });

  it('answers 502 target_unreachable, not 504, when it crashes late in a read that ran long', async () => {
    const { result } = await crashLateInALongRead();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 25_000 });
  });

  it('answers 502 target_unreachable, at once, when it crashes while a PDF is read out of the browser', async () => {
    const { result } = await crashWhileReadingAPdf();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 3000 });
  });

  it('answers 502 target_unreachable, at once, when it crashes while the page is being read again', async () => {
    const { result } = await crashWhileReadingAgain();
    expect(failure(result)).toEqual({ error: 'target_unreachable', status: 502, message: CRASHED, at: 1500 });
  });
});

describe('loadPage: an oversized main document', () => {
  it('answers 502 content_too_large at once when the main document streams past maxContentBytes', async () => {
    const { result } = await oversizedDocument();
    expect(outcome(result)).toEqual({ error: 'content_too_large', status: 502, at: 300 });
  });
});

describe("loadPage: Chrome's error page after the page's own navigation", () => {
  it('answers 502 target_unreachable at once, naming the net error and the URL without its query', async () => {
    const { result } = await ownNavigationToUnreachableUrl();
    expect(failure(result)).toEqual({
      error: 'target_unreachable',
      status: 502,
      message: 'The page navigated to http://127.0.0.1:9/gone, which could not be reached (net::ERR_CONNECTION_REFUSED).',
      at: 500,
    });
  });
});

describe('loadPage: a document whose body failed', () => {
  it('answers 502 target_unreachable naming the net error when nothing of the document serialized', async () => {
    const { result } = await bodyFailedWithNoDocument();
    expect(failure(result)).toEqual({
      error: 'target_unreachable',
      status: 502,
      message: "The target's response broke off before any content (net::ERR_CONNECTION_RESET).",
      at: 5000,
    });
  });

  it('answers 502 target_unreachable naming the net error when the body serialized empty', async () => {
    const { result } = await bodyFailedAndSerializedTo('<html><head><title>t</title></head><body>\n  </body></html>');
    expect(failure(result)).toEqual({
      error: 'target_unreachable',
      status: 502,
      message: "The target's response broke off before any content (net::ERR_CONNECTION_RESET).",
      at: 5000,
    });
  });

  it('returns the content that arrived, with waitResult timeout at the budget, when the body holds content', async () => {
    const { result } = await bodyFailedWithContent();
    const settled = result.current;
    expect(settled.state === 'resolved' && { html: settled.value.content, waitResult: settled.value.waitResult, at: settled.at }).toEqual({
      html: '<html><head></head><body><h1>Partial</h1></body></html>',
      waitResult: 'timeout',
      at: 5000,
    });
  });
});

describe('loadPage: cleanup after an early failure', () => {
  it.each([
    ['the tab crashing during navigation', crashDuringNavigation],
    ['the tab crashing during the wait', crashDuringWait],
    ['the tab crashing during serialization', crashDuringSerialization],
    ['an oversized main document', oversizedDocument],
    ["the page's own navigation to an unreachable URL", ownNavigationToUnreachableUrl],
    ['a failed body with nothing serialized', bodyFailedWithNoDocument],
    ['a failed body with content', bodyFailedWithContent],
  ])('leaves no timer pending and no listener on the page or its session after %s', async (_, scenario) => {
    const { fake, result } = await scenario();
    expect({ settled: result.current.state !== 'pending', timers: vi.getTimerCount(), listeners: fake.listeners() }).toEqual({
      settled: true,
      timers: 0,
      listeners: 0,
    });
  });
});
