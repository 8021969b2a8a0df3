// A render call and a rendered page as the browser side's tests (and the fleet simulation) start from:
// an html read of example.com at load, no proxy, the deployment's default fleet settings.
import type { RenderCall, RenderedPage } from '../../../../src/browser/render-call.js';

export const RENDER_CALL: RenderCall = {
  setup: { blockResources: true, guard: { allowPrivateNetwork: false } },
  load: {
    url: 'https://example.com/',
    waitEvent: 'load',
    waitMs: 5000,
    scrollSteps: 0,
    consent: 'reject',
    navigationTimeoutMs: 30_000,
    maxContentBytes: 1000,
    maxPdfBytes: 25 * 1024 * 1024,
    maxPdfPages: 300,
    format: 'html',
    metadata: false,
    mainContent: false,
  },
  idleCloseMs: 60_000,
  fleet: { maxBrowsers: 4, maxPages: 10, queueMs: 5000 },
};

export const RENDERED_PAGE: RenderedPage = {
  content: '<html></html>',
  form: 'html',
  finalUrl: 'https://example.com/',
  status: 200,
  headers: {},
  waitResult: 'event',
  documentKind: 'html',
};
