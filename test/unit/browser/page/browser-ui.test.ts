import type { BrowserContext, Page, Target } from '@cloudflare/puppeteer';
import { describe, expect, it, vi } from 'vitest';
import { newPageWithoutBrowserUi } from '../../../../src/browser/page/browser-ui.js';

const PAGE = { kind: 'page' } as unknown as Page;

/** A browser whose browser-target session answers Target.* commands and records them. */
function fakeBrowser(options: { sessionFails?: boolean; getTargetsFails?: boolean; createFails?: boolean } = {}) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const targets = [
    { targetId: 'ui-1', type: 'browser_ui', browserContextId: 'CTX' },
    { targetId: 'ui-2', type: 'browser_ui', browserContextId: 'CTX' },
    { targetId: 'ui-other', type: 'browser_ui', browserContextId: 'OTHER' },
    { targetId: 'page-other', type: 'page', browserContextId: 'CTX' },
  ];
  const session = {
    send: vi.fn(async (method: string, params: Record<string, unknown> = {}) => {
      sent.push({ method, params });
      if (method === 'Target.createTarget') {
        if (options.createFails) throw new Error('session closed');
        return { targetId: 'NEW' };
      }
      if (method === 'Target.getTargets') {
        if (options.getTargetsFails) throw new Error('filter not supported');
        return { targetInfos: targets };
      }
      return {};
    }),
  };
  const created = { _targetId: 'NEW', page: async () => PAGE } as unknown as Target;
  const browser = {
    target: () => ({
      createCDPSession: async () => {
        if (options.sessionFails) throw new Error('no browser session');
        return session;
      },
    }),
    waitForTarget: vi.fn(async (predicate: (target: Target) => boolean) => {
      const other = { _targetId: 'page-other' } as unknown as Target;
      expect(predicate(other)).toBe(false);
      if (!predicate(created)) throw new Error('waited for the wrong target');
      return created;
    }),
  };
  const fallbackPage = { kind: 'fallback' } as unknown as Page;
  const context = {
    id: 'CTX',
    browser: () => browser,
    newPage: vi.fn(async () => fallbackPage),
  } as unknown as BrowserContext & { newPage: ReturnType<typeof vi.fn> };
  return { context, sent, fallbackPage };
}

describe('newPageWithoutBrowserUi', () => {
  it("creates the page's target in the context, then closes that context's browser UI and nothing else", async () => {
    const { context, sent } = fakeBrowser();
    const page = await newPageWithoutBrowserUi(context);
    expect(page).toBe(PAGE);
    expect(sent.map((c) => c.method)).toEqual(['Target.createTarget', 'Target.getTargets', 'Target.closeTarget', 'Target.closeTarget']);
    expect(sent[0]!.params).toEqual({ url: 'about:blank', browserContextId: 'CTX' });
    expect(sent.slice(2).map((c) => c.params.targetId)).toEqual(['ui-1', 'ui-2']);
    expect(context.newPage).not.toHaveBeenCalled();
  });

  it('still returns the page when the browser cannot list its UI targets', async () => {
    const { context, sent } = fakeBrowser({ getTargetsFails: true });
    expect(await newPageWithoutBrowserUi(context)).toBe(PAGE);
    expect(sent.some((c) => c.method === 'Target.closeTarget')).toBe(false);
  });

  it("falls back to puppeteer's newPage without a browser session", async () => {
    const { context, fallbackPage } = fakeBrowser({ sessionFails: true });
    expect(await newPageWithoutBrowserUi(context)).toBe(fallbackPage);
  });

  it("falls back to puppeteer's newPage when its browser session fails", async () => {
    const { context, fallbackPage } = fakeBrowser({ createFails: true });
    expect(await newPageWithoutBrowserUi(context)).toBe(fallbackPage);
  });
});
