// Filters the browser's own requests through CDP's Fetch domain, in a session of its own (puppeteer's
// session stays untouched):
// - heavy resources the output cannot contain (images, media, fonts) are not downloaded; the elements
//   stay in the DOM. Alone, only those resource types pause, so other requests are never held up.
// - the private-network guard (guard/policy.ts): with it on, every request pauses once and any the
//   guard refuses is failed, whether the page, a redirect or a frame asked for it. A main-frame
//   document refused this way is reported so the fetch answers 403.
import type { CDPSession, Page } from '@cloudflare/puppeteer';
import type { TargetGuard } from '../guard/policy.js';
import { frameId } from './cdp-internals.js';

export const BLOCKED_RESOURCE_TYPES = ['Image', 'Media', 'Font'] as const;
const BLOCKED: ReadonlySet<string> = new Set(BLOCKED_RESOURCE_TYPES);

export interface RequestFilterOptions {
  blockResources: boolean;
  guard: TargetGuard;
}

export interface RequestFilter {
  /** Resolves with a reason when the main frame was sent to a forbidden host (e.g. by a redirect). */
  forbiddenNavigation: Promise<string>;
}

interface RequestPausedEvent {
  requestId: string;
  request: { url: string };
  resourceType: string;
  frameId?: string;
}

/** Installs the filter on `page`; returns undefined when there is nothing to filter. */
export async function installRequestFilter(page: Page, options: RequestFilterOptions): Promise<RequestFilter | undefined> {
  const guarded = options.guard.checksBrowserRequests;
  if (!options.blockResources && !guarded) return undefined;
  let reportForbidden!: (reason: string) => void;
  const forbiddenNavigation = new Promise<string>((resolve) => (reportForbidden = resolve));
  const session: CDPSession = await page.createCDPSession();
  const reply = (method: 'Fetch.failRequest' | 'Fetch.continueRequest', params: object) =>
    // The page may already be closing; a failed reply changes nothing then.
    void session.send(method, params as never).catch(() => undefined);

  session.on('Fetch.requestPaused', (event: RequestPausedEvent) => {
    if (options.blockResources && BLOCKED.has(event.resourceType)) {
      return reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
    }
    const reason = options.guard.browserRequestRefusal(event.request.url);
    if (reason === undefined) return reply('Fetch.continueRequest', { requestId: event.requestId });
    if (event.resourceType === 'Document' && event.frameId === frameId(page.mainFrame())) reportForbidden(reason);
    reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
  });
  const patterns = guarded
    ? [{ urlPattern: '*', requestStage: 'Request' as const }]
    : BLOCKED_RESOURCE_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const }));
  await session.send('Fetch.enable', { patterns });
  return { forbiddenNavigation };
}
