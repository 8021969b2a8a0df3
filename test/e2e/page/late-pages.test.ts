// Pages that arrive late (docs/api.md "Waiting"), against the real Worker, Browser Rendering emulation
// and Chromium: streams that never end do not hold network idle, wait_for_selector, lazy loaders that
// see the page in view, and scroll: true.
import { describe, expect, it } from 'vitest';
import { NETWORK_QUIET_MS } from '../../../src/browser/page/network-tracker.js';
import { useWorker } from '../support/e2e-hooks.js';
import { LAZY_SHAPES, LOADER_QUERY } from '../support/lazy-routes.js';

const ctx = useWorker();

async function fetchJson(body: object) {
  const started = Date.now();
  const response = await ctx.worker.fetchPage(body);
  const json = (await response.json()) as { data: string; error?: { code: string; details?: { field: string; message: string }[] } };
  return { response, json, elapsed: Date.now() - started };
}

/** The wait phase of a fetch answer's Server-Timing, in ms. */
function waitPhase(response: Response): number {
  const match = /(?:^|,\s*)wait;dur=([\d.]+)/.exec(response.headers.get('Server-Timing') ?? '');
  if (match === null) throw new Error(`no wait phase in ${response.headers.get('Server-Timing')}`);
  return Number(match[1]);
}

describe('streams are not loads', () => {
  // The budget is long; a page held by its stream would answer `timeout` after 15 s.
  const IDLE_WITHIN_MS = NETWORK_QUIET_MS + 1000;

  it.each([
    ['a WebSocket', '/live/socket?late=1'],
    ['an EventSource', '/live/sse?late=1'],
    ['an event stream read by fetch', '/live/sse?late=1&via=fetch'],
    ['a beacon every 200 ms', '/live/beacon?late=1'],
  ])('a page with %s reaches networkIdle once its content has loaded', async (_kind, path) => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url(path), wait_ms: 15_000 });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    // The ordinary fetch (800 ms) was still waited for; the stream was not.
    expect(json.data).toContain('LATE DATA ARRIVED');
    expect(waitPhase(response)).toBeLessThan(800 + IDLE_WITHIN_MS);
  });

  it('the stream was live while the page was read', async () => {
    const { json } = await fetchJson({ url: ctx.fixtures.url('/live/socket'), wait_ms: 15_000 });
    expect(json.data).toMatch(/messages: \d+/);
  });
});

describe('wait_for_selector', () => {
  // As serialized once the script added it (the script's own text holds the words, not the element).
  const LATE_ELEMENT = '<div id="late">Late element arrived</div>';

  it('takes the page once an element added after network idle is rendered', async () => {
    const url = ctx.fixtures.url('/wait/late-element');
    const without = await fetchJson({ url });
    expect(without.json.data).not.toContain(LATE_ELEMENT);
    const { response, json } = await fetchJson({ url, wait_for_selector: '#late' });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain(LATE_ELEMENT);
  });

  it('does not take a match that is not rendered, and waits for it to be shown', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/wait/hidden-matches'), wait_for_selector: '.target' });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('id="shown-later" style="display: block;"');
  });

  it.each([
    ['visibility: hidden', '.ghost'],
    ['an empty box', '.empty'],
    ['inside a display: none ancestor', '.inner'],
    ['nothing matching', '#no-such-element'],
  ])('answers at the budget with X-Wait-Result: timeout when the only match is %s', async (_case, selector) => {
    const { response, json, elapsed } = await fetchJson({
      url: ctx.fixtures.url('/wait/hidden-matches'),
      wait_for_selector: selector,
      wait_ms: 2500,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('timeout');
    expect(json.data).toContain('<h1>Hidden matches</h1>');
    expect(elapsed).toBeGreaterThanOrEqual(2500);
  });

  it('finds a match inside an open shadow root', async () => {
    const { response, json } = await fetchJson({
      url: ctx.fixtures.url('/wait/shadow'),
      output_format: 'markdown',
      wait_for_selector: 'p.card-body',
    });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('Shadow content arrived');
  });

  it('with DOMContentLoaded, waits for the selector alone on a page that never goes idle', async () => {
    const { response, json } = await fetchJson({
      url: ctx.fixtures.url('/wait/busy-element'),
      wait_event: 'DOMContentLoaded',
      wait_for_selector: '#ready',
      wait_ms: 15_000,
    });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('<p id="ready">Ready at last</p>');
    expect(waitPhase(response)).toBeLessThan(5000);
  });

  it('takes what Chromium takes (:has(), :is(), an unclosed bracket at the end)', async () => {
    for (const selector of ['body:has(> #late)', ':is(#late, #never)', '[id=late']) {
      const { response, json } = await fetchJson({ url: ctx.fixtures.url('/wait/late-element'), wait_for_selector: selector });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Wait-Result')).toBe('event');
      expect(json.data).toContain(LATE_ELEMENT);
    }
  });

  const targetRequests = (path: string) => ctx.fixtures.requests.filter((request) => request.path === path).length;

  it.each([
    ['not selector syntax (refused by the Worker)', 'div;p'],
    ['a dangling combinator at the start', '> p'],
    ['a pseudo-class Chromium does not know (refused by the browser)', 'p:no-such-state'],
    ['an empty bracket at the end', 'div['],
  ])('answers 400 naming wait_for_selector for %s, before the target is loaded', async (_case, selector) => {
    const path = `/echo?id=invalid-${encodeURIComponent(selector)}`;
    const { response, json } = await fetchJson({ url: ctx.fixtures.url(path), wait_for_selector: selector });
    expect(response.status).toBe(400);
    expect(json.error?.code).toBe('invalid_request');
    expect(json.error?.details?.map((detail) => detail.field)).toEqual(['wait_for_selector']);
    expect(targetRequests(path)).toBe(0);
  });

  it('answers 400 for an empty selector and one over 1024 characters', async () => {
    for (const selector of ['', '   ', `#${'a'.repeat(1024)}`]) {
      const { response, json } = await fetchJson({ url: ctx.fixtures.url('/echo?id=bounds'), wait_for_selector: selector });
      expect(response.status).toBe(400);
      expect(json.error?.details?.map((detail) => detail.field)).toEqual(['wait_for_selector']);
    }
  });
});

describe('lazy loaders see the page in view', () => {
  it('renders observed sections, swaps in the real image and loads a loading=lazy iframe, without scrolling', async () => {
    const url = ctx.fixtures.url('/lazy/below-the-fold');
    const { json } = await fetchJson({ url, output_format: 'markdown' });
    for (const i of [1, 2, 3]) expect(json.data).toContain(`Section ${i} rendered in view`);
    expect(json.data).toContain(`![Harbour at dawn](${ctx.fixtures.url('/lazy/photo.jpg')})`);
    expect(json.data).not.toContain('placeholder.gif');
    expect(json.data).toContain('Same-origin frame text.');
    expect(json.data).toContain('Component inside the frame.');
    expect(json.data).toContain('never scrolled');
    expect(json.data).toContain('viewport unchanged');
  });

  it('leaves the page its own loading attribute in html', async () => {
    const { json } = await fetchJson({ url: ctx.fixtures.url('/lazy/below-the-fold') });
    expect(json.data).toContain('<iframe loading="lazy" src="/pages/reader-frame.html">');
    expect(json.data).toContain('<img class="lazy-image" src="/lazy/photo.jpg"');
  });
});

describe('every IntersectionObserver reports its targets in view', () => {
  // Each image's loader swaps in its data-src with a query of its own: the answer carries the loader's URL.
  // One load per form, shared by the cases.
  const answers = new Map<string, Promise<string>>();
  const answerAs = (format: 'html' | 'markdown') => {
    if (!answers.has(format)) {
      const body = { url: ctx.fixtures.url('/lazy/shapes'), output_format: format, wait_event: 'networkIdle', wait_ms: 15_000 };
      answers.set(
        format,
        fetchJson(body).then(({ json }) => json.data),
      );
    }
    return answers.get(format)!;
  };

  it.each(LAZY_SHAPES)('an image whose loader is shaped "%s" is read with the loader’s own URL', async (name) => {
    const markdown = await answerAs('markdown');
    const source = ctx.fixtures.url(`/lazy/${name}.jpg${LOADER_QUERY}`);
    const expected = name === 'in-cross-origin-frame' ? source.replace('127.0.0.1', 'localhost') : source;
    expect(markdown).toContain(`![Case ${name}](${expected})`);
    // The html form is the page's DOM, without the frames' documents.
    if (name.startsWith('in-')) return;
    const html = await answerAs('html');
    expect(html).toMatch(new RegExp(`<img id="${name}"[^>]* src="/lazy/${name}\\.jpg\\${LOADER_QUERY}"`));
  });

  it('no image is left with its placeholder', async () => {
    expect(await answerAs('markdown')).not.toContain('placeholder.gif');
  });
});

describe('scroll', () => {
  const items = (markdown: string) => markdown.match(/Feed item \d+\.\d+/g)?.length ?? 0;

  it('loads a feed to its end and stops there', async () => {
    // Four batches of ten items, 1000 px each: fewer viewports than MAX_SCROLL_STEPS.
    const url = ctx.fixtures.url('/scroll/feed?batches=4&size=10');
    const plain = await fetchJson({ url, output_format: 'markdown' });
    expect(plain.json.data).toContain('viewports scrolled: 0');
    expect(items(plain.json.data)).toBeLessThan(40);
    const { response, json } = await fetchJson({ url, output_format: 'markdown', scroll: true, wait_ms: 20_000 });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(items(json.data)).toBe(40);
    expect(json.data).toContain('End of feed');
    const scrolled = Number(/viewports scrolled: (\d+)/.exec(json.data)?.[1]);
    expect(scrolled).toBeGreaterThan(0);
    expect(scrolled).toBeLessThan(10);
  });

  it('waits for the event again after the scroll: a load the scroll started is in the answer', async () => {
    const url = ctx.fixtures.url('/scroll/slow-more');
    const { response, json } = await fetchJson({ url, output_format: 'markdown', scroll: true, wait_ms: 15_000 });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('Loaded after the scroll');
  });

  // The page writes how far it has been scrolled: read where it stands, never scrolled back.
  it('stops an endless feed after MAX_SCROLL_STEPS viewports, inside the budget', async () => {
    const { response, json, elapsed } = await fetchJson({
      url: ctx.fixtures.url('/scroll/feed'),
      output_format: 'markdown',
      scroll: true,
      wait_ms: 20_000,
    });
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data).toContain('viewports scrolled: 10');
    expect(elapsed).toBeLessThan(20_000);
  });

  it('answers timeout when the budget runs out while scrolling', async () => {
    const { response, json } = await fetchJson({
      url: ctx.fixtures.url('/scroll/feed'),
      output_format: 'markdown',
      scroll: true,
      wait_ms: 1500,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('timeout');
    expect(json.data).toContain('Feed item 1.0');
  });

  it('takes a page shorter than the viewport as it is', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/pages/article.html'), output_format: 'markdown', scroll: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(json.data.length).toBeGreaterThan(0);
  });
});
