// serializePage (serialize.ts) on a page that keeps navigating away under the read ("Execution context
// was destroyed"): it reads again until a read succeeds, and gives up at the read's bound after it began.
// The size limit and a read that never settles are covered through loadPage in page-load.test.ts.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readBoundMs, serializePage } from '../../../../src/browser/read/serialize.js';
import { Timers } from '../../../../src/browser/timers.js';
import { ApiError } from '../../../../src/errors.js';
import { METADATA_FIELDS, type PageMetadata } from '../../../../src/shared/metadata.js';
import { FakePage, htmlReply } from '../support/fake-page.js';
import { at, track, useFakeClock } from '../support/settle.js';

useFakeClock();

const HTML = '<!DOCTYPE html><html><body>settled</body></html>';
/** The read's bound of a request with the default budgets (NAVIGATION_TIMEOUT_MS 30 s, wait_ms 5 s). */
const BOUND_MS = readBoundMs({ navigationTimeoutMs: 30_000, waitMs: 5000 });
const navigatedAway = () => new Error('Execution context was destroyed, most likely because of a navigation.');

let timers: Timers;
afterEach(() => timers.clear());

function serialize(fake: FakePage) {
  timers = new Timers();
  return track(serializePage(fake.page, 'html', 1_000_000, { timers, boundMs: BOUND_MS }));
}

/** A page whose first `failures` reads fail because it navigated away, and whose next read gives HTML. */
function pageNavigatingAway(failures: number) {
  const fake = new FakePage();
  for (let i = 0; i < failures; i++) fake.readPage.mockRejectedValueOnce(navigatedAway());
  fake.readPage.mockResolvedValueOnce(htmlReply(HTML));
  return fake;
}

/** A page every read of which fails because it navigated away. */
function pageAlwaysNavigatingAway() {
  const fake = new FakePage();
  fake.readPage.mockImplementation(async () => {
    throw navigatedAway();
  });
  return fake;
}

describe('serializePage: a page that navigates away under the read', () => {
  it('reads again until a read succeeds, and returns that HTML', async () => {
    const serialized = serialize(pageNavigatingAway(30));
    await at(BOUND_MS - 1);
    expect(serialized.current.state === 'resolved' && serialized.current.value).toEqual({ content: HTML });
  });

  it('reads once more for each read that failed', async () => {
    const fake = pageNavigatingAway(30);
    serialize(fake);
    await at(BOUND_MS - 1);
    expect(fake.readPage).toHaveBeenCalledTimes(31);
  });

  it('answers target_timeout at the read bound after it began when no read succeeds', async () => {
    const serialized = serialize(pageAlwaysNavigatingAway());
    await at(120_000);
    const settled = serialized.current;
    expect(settled.state === 'rejected' && settled.error instanceof ApiError && { code: settled.error.code, at: settled.at }).toEqual({
      code: 'target_timeout',
      at: BOUND_MS,
    });
  });

  it('stops reading once it gave up', async () => {
    const fake = pageAlwaysNavigatingAway();
    serialize(fake);
    await at(BOUND_MS + 100);
    const readsWhenGivenUp = fake.readPage.mock.calls.length;
    await at(120_000);
    expect(fake.readPage).toHaveBeenCalledTimes(readsWhenGivenUp);
  });
});

describe("readBoundMs: the read is bounded by the request's own budget", () => {
  it("is the main document's bound, or the waiting budget when that is longer", () => {
    expect(readBoundMs({ navigationTimeoutMs: 30_000, waitMs: 5000 })).toBe(30_000);
    expect(readBoundMs({ navigationTimeoutMs: 20_000, waitMs: 45_000 })).toBe(45_000);
  });

  it('a read as slow as a slow machine makes it, inside the bound, is the answer, not a timeout', async () => {
    const fake = new FakePage();
    let answer!: (reply: ReturnType<typeof htmlReply>) => void;
    fake.readPage.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const serialized = serialize(fake);
    await at(BOUND_MS - 1000);
    answer(htmlReply(HTML));
    await at(BOUND_MS - 999);
    expect(serialized.current.state === 'resolved' && serialized.current.value).toEqual({ content: HTML });
  });
});

describe('serializePage: metadata', () => {
  it('reads the metadata of the same document in the same call, when asked', async () => {
    const fake = new FakePage();
    const metadata = { ...(Object.fromEntries(METADATA_FIELDS.map((field) => [field, null])) as PageMetadata), title: 'T' };
    fake.readPage.mockResolvedValue({ kind: 'html', html: HTML, metadata });
    timers = new Timers();
    const result = track(serializePage(fake.page, 'html', 1_000_000, { timers, boundMs: BOUND_MS }, { metadata: true }));
    await at(1);
    expect(fake.readPage.mock.calls).toEqual([[{ mode: 'html', maxChars: 1_000_000, metadata: true }]]);
    expect(result.current.state === 'resolved' && result.current.value).toEqual({ content: HTML, metadata });
  });
});

describe('serializePage: the in-page script', () => {
  it('is sent as one function the page can parse, with the request as its argument, in the isolated world', async () => {
    const fake = new FakePage();
    const result = serialize(fake);
    await at(1);
    expect(result.current.state).toBe('resolved');
    const call = fake.session.sent.find((sent) => sent.method === 'Runtime.callFunctionOn')!.params as {
      functionDeclaration: string;
      executionContextId: number;
      arguments: unknown[];
      returnByValue: boolean;
      awaitPromise: boolean;
    };
    // Parsed, not run: a syntax error in the bundle or in its wrapping throws here.
    expect(() => new Function(`return ${call.functionDeclaration}`)).not.toThrow();
    expect({ ...call, functionDeclaration: undefined }).toEqual({
      functionDeclaration: undefined,
      executionContextId: 7,
      arguments: [{ value: { mode: 'html', maxChars: 1_000_000 } }],
      returnByValue: true,
      awaitPromise: true,
    });
  });

  // The page compiles what it is sent on every read: each kind of read sends its own bundle (built by
  // the tests' global setup), the html read none of the serializer's code.
  const bundle = (kind: string) => readFileSync(new URL(`../../../../build/page-script-${kind}.js`, import.meta.url), 'utf8');
  const sentScript = async (mode: 'html' | 'markdown' | 'main-html', mainContent = false, views?: { links: boolean }) => {
    const fake = new FakePage();
    fake.readPage.mockResolvedValue(mode === 'markdown' ? { kind: 'markdown', markdown: 'ok' } : htmlReply(HTML));
    timers = new Timers();
    const result = track(
      serializePage(fake.page, mode, 1_000_000, { timers, boundMs: BOUND_MS }, { mainContent, ...(views ? { views } : {}) }),
    );
    await at(1);
    expect(result.current.state).toBe('resolved');
    const calls = fake.session.sent.filter((sent) => sent.method === 'Runtime.callFunctionOn');
    expect(calls).toHaveLength(1);
    return (calls[0]!.params as { functionDeclaration: string }).functionDeclaration;
  };

  it.each([
    ['html', 'html', false],
    ['markdown', 'markdown', false],
    ['main-content', 'markdown', true],
    ['main-content', 'main-html', true],
  ] as const)('sends the %s bundle to a %s read (main content: %s)', async (kind, mode, mainContent) => {
    const script = await sentScript(mode, mainContent);
    // Sent inside the wrapper that hands the reply over in slices (isolated-world.ts).
    expect(script).toContain(`(function (request) {\n${bundle(kind)}\nreturn pageFetchScript.run(request);\n}).call(this, request)`);
  });

  it.each(['html', 'markdown', 'main-html'] as const)('sends the views bundle to a %s read that gathers links', async (mode) => {
    const script = await sentScript(mode, mode === 'main-html', { links: true });
    expect(script).toContain(`(function (request) {\n${bundle('views')}\nreturn pageFetchScript.run(request);\n}).call(this, request)`);
  });

  it('has bundles that grow with what the read needs: html < markdown < main content', () => {
    // The serializer and the reader form are most of the markdown bundle (34 of its 45 KB): an html
    // bundle that carried them would be over half of it; its own code (the DOM, metadata, the wall's
    // signals) is about a quarter.
    expect(bundle('html').length).toBeLessThan(bundle('markdown').length / 2);
    expect(bundle('markdown').length).toBeLessThan(bundle('main-content').length);
  });
});
