// Cookie-consent dialogs on a busy machine: each platform's fixture fetched while eight other renders
// of a heavy page (a large DOM, a main thread kept busy) are in flight in the same browser. The
// consent engine's own detection rounds then come late, and the page must still not be taken before
// the engine looked at it (docs/consent.md "Waiting"): each dialog declined, whether the page is taken
// at network idle or as soon as DOMContentLoaded fired; kept with consent: "keep".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_TEXT, CONSENT_PLATFORMS as PLATFORMS } from '../support/consent-routes.js';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

const WAIT_EVENTS = ['networkIdle', 'DOMContentLoaded'] as const;
/** Renders of the heavy page kept in flight beside each consent request. */
const IN_FLIGHT = 8;
/** A budget that a machine three times slower still answers within: what is tested is the answer, not its speed. */
const WAIT_MS = 30_000;

/** Keeps IN_FLIGHT renders of the heavy page going until stopped: each one done starts the next. */
function loadTheMachine() {
  let running = true;
  let started = 0;
  const statuses: number[] = [];
  const lane = async () => {
    while (running) {
      // As html: the load is the page's rendering and scripts; its markdown would only lengthen the read.
      const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(`/consent/heavy?n=${started++}`), output_format: 'html' });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
  };
  const lanes = Array.from({ length: IN_FLIGHT }, lane);
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(lanes);
    },
  };
}

/** The choices recorded for the page fetched with ?id=`id`. */
const choices = (id: string) =>
  ctx.fixtures.requests
    .filter((request) => request.path.startsWith('/consent/record?') && request.path.endsWith(`&id=${id}`))
    .map((request) => new URL(request.path, 'http://fixture.invalid').searchParams.get('choice'));

async function fetchMarkdown(cmp: string, id: string, fields: object) {
  const response = await ctx.worker.fetchPage({
    url: ctx.fixtures.url(`/consent/${cmp}?id=${id}`),
    output_format: 'markdown',
    wait_ms: WAIT_MS,
    ...fields,
  });
  const json = (await response.json()) as { data: string };
  return { response, markdown: json.data };
}

let load: ReturnType<typeof loadTheMachine>;
beforeAll(async () => {
  load = loadTheMachine();
  // The heavy renders are under way before the first consent request.
  while (load.statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
}, 120_000);
afterAll(async () => {
  await load.stop();
}, 120_000);

describe('consent dialogs with eight heavy renders in flight', () => {
  describe.each(WAIT_EVENTS)('taken at %s', (waitEvent) => {
    it.each(PLATFORMS)('declines the %s dialog: not in the markdown, the article is, the decline chosen once', async (cmp, dialogText) => {
      const id = `load-${waitEvent}-${cmp}`;
      const { response, markdown } = await fetchMarkdown(cmp, id, { wait_event: waitEvent });
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Wait-Result')).toBe('event');
      expect(markdown).toContain(ARTICLE_TEXT);
      expect(markdown).not.toContain(dialogText);
      expect(choices(id)).toEqual(['reject']);
    });
  });

  it.each(PLATFORMS)('keeps the %s dialog with consent: "keep", and answers nothing', async (cmp, dialogText) => {
    const id = `load-keep-${cmp}`;
    // At network idle: the Sourcepoint dialog's frame loads after DOMContentLoaded.
    const { response, markdown } = await fetchMarkdown(cmp, id, { consent: 'keep' });
    expect(response.status).toBe(200);
    expect(markdown).toContain(ARTICLE_TEXT);
    expect(markdown).toContain(dialogText);
    expect(choices(id)).toEqual([]);
  });

  it('kept the heavy renders going and answered them', () => {
    expect(load.statuses.length).toBeGreaterThanOrEqual(IN_FLIGHT);
    expect(load.statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
