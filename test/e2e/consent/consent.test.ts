// Cookie-consent dialogs (docs/api.md "Consent dialogs") on fixtures with the markup and APIs of six
// consent platforms, against the real Worker, Browser Rendering emulation and Chromium: declined by
// default (never accepted), not in the output, the article is; kept with consent: "keep"; each
// request decides afresh.
import { describe, expect, it } from 'vitest';
import { ARTICLE_TEXT, CONSENT_PLATFORMS as PLATFORMS } from '../support/consent-routes.js';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

/** The choices recorded for the page fetched with ?id=`id`. */
const choices = (id: string) =>
  ctx.fixtures.requests
    .filter((request) => request.path.startsWith('/consent/record?') && request.path.endsWith(`&id=${id}`))
    .map((request) => new URL(request.path, 'http://fixture.invalid').searchParams.get('choice'));

/** The fixture page of `cmp` in markdown; `query` goes before its ?id=. */
async function fetchMarkdown(cmp: string, id: string, fields: object = {}, query = '') {
  const response = await ctx.worker.fetchPage({
    url: ctx.fixtures.url(`/consent/${cmp}?${query}id=${id}`),
    output_format: 'markdown',
    ...fields,
  });
  const json = (await response.json()) as { data: string };
  return { response, markdown: json.data };
}

/** What a declined dialog leaves: the page answered, its article there, its dialog not, the decline recorded once. */
function expectDeclined(page: { response: Response; markdown: string }, dialogText: string, id: string) {
  expect(page.response.status).toBe(200);
  expect(page.markdown).toContain(ARTICLE_TEXT);
  expect(page.markdown).not.toContain(dialogText);
  expect(choices(id)).toEqual(['reject']);
}

describe('consent: "reject" (the default)', () => {
  it.each(PLATFORMS)(
    'declines the %s dialog: not in the markdown, the article is, and only the decline was chosen',
    async (cmp, dialogText) => {
      const id = `reject-${cmp}`;
      expectDeclined(await fetchMarkdown(cmp, id), dialogText, id);
    },
  );

  it("declines it too where the URL holds a site rule's text (the page asks the Durable Object for its rules)", async () => {
    // "dropbox.com/" is the text of a site rule: the page asks for its rules and runs the answer (the
    // rule's own pattern, the host, leaves the rule out); the generic OneTrust rule declines as before.
    // A request never answered leaves the page with no rules running: this test fails then.
    expectDeclined(await fetchMarkdown('onetrust', 'site-rules', {}, 'from=dropbox.com/&'), 'OneTrust dialog', 'site-rules');
  });

  it('declines it where the Durable Object refuses to send rules (the frame runs the rules it carries)', async () => {
    // The Sourcepoint frame's URL holds a site rule's text and is longer than any site rule needs:
    // its request for rules is refused, and a frame that then ran nothing would leave the dialog up.
    expectDeclined(await fetchMarkdown('sourcepoint', 'refused', {}, 'long=1&'), 'Sourcepoint dialog', 'refused');
  });

  it('takes the page once the declined dialog closed, where its platform closes it a while after the answer', async () => {
    // The Sourcepoint frame tells its page to close the dialog only once its record of the choice is
    // answered, 800 ms after the click; taken at DOMContentLoaded, the page waits for nothing else.
    const page = await fetchMarkdown('sourcepoint', 'closed-later', { wait_event: 'DOMContentLoaded' }, 'hold=800&');
    expectDeclined(page, 'Sourcepoint dialog', 'closed-later');
  });

  it('declines a dialog drawn after the first look for one (each look asks the page afresh)', async () => {
    // The Didomi rule starts with an element that must exist: missing at the first look, the rule
    // is answered "not detected" there, and found at a later look once the page has drawn it.
    expectDeclined(await fetchMarkdown('didomi-late', 'late'), 'Didomi dialog', 'late');
  });

  it('leaves the declined dialog out of html too (hidden or gone, as the platform leaves it)', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/consent/onetrust?id=html'), output_format: 'html' });
    const { data } = (await response.json()) as { data: string };
    expect(data).toContain(ARTICLE_TEXT);
    expect(data).toMatch(/<div id="onetrust-banner-sdk"[^>]*style="[^"]*display: none;/);
    expect(choices('html')).toEqual(['reject']);
  });
});

describe('a frame taken out of the page', () => {
  it('takes the page at network idle once the frame is gone, its open request forgotten', async () => {
    // A consent platform's frame is removed by its page right after it posted the choice; a request
    // it left open ends with it, whether or not Chrome reports that end.
    const started = Date.now();
    const response = await ctx.worker.fetchPage({
      url: ctx.fixtures.url('/consent/frame-removed'),
      output_format: 'markdown',
      wait_ms: 30_000,
    });
    const { data } = (await response.json()) as { data: string };
    expect(response.headers.get('X-Wait-Result')).toBe('event');
    expect(data).toContain(ARTICLE_TEXT);
    expect(data).not.toContain('Sending the choice.');
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('a page without a dialog', () => {
  it('carries no trace of the consent script in its html, read as soon as it is loaded', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/bench/article?fetch_ms=0'), wait_event: 'DOMContentLoaded' });
    const { data } = (await response.json()) as { data: string };
    expect(data).toContain('<title>Benchmark article</title>');
    expect(data).not.toContain('autoconsent');
  });
});

describe('consent: "keep"', () => {
  it.each(PLATFORMS)('takes the %s page as served, dialog included, and answers nothing', async (cmp, dialogText) => {
    const id = `keep-${cmp}`;
    const { markdown } = await fetchMarkdown(cmp, id, { consent: 'keep' });
    expect(markdown).toContain(ARTICLE_TEXT);
    // The Sourcepoint dialog lives in its cross-origin frame, which markdown shows where it stands.
    expect(markdown).toContain(dialogText);
    expect(choices(id)).toEqual([]);
  });

  it('decides afresh on each request: a decline before does not leak into the next request', async () => {
    await fetchMarkdown('onetrust', 'first', {});
    expect(choices('first')).toEqual(['reject']);
    const { markdown } = await fetchMarkdown('onetrust', 'second', { consent: 'keep' });
    expect(markdown).toContain('OneTrust dialog');
    const third = await fetchMarkdown('onetrust', 'third', {});
    expect(third.markdown).not.toContain('OneTrust dialog');
    expect(choices('third')).toEqual(['reject']);
  });
});
