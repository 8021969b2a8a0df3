// Filters the browser's own requests through CDP's Fetch domain, in a session of its own (puppeteer's
// session stays untouched):
// - heavy resources the output cannot contain (images, media, fonts) are not downloaded; the elements
//   stay in the DOM. Alone, only those resource types pause, so other requests are never held up.
// - the private-network guard: with it on, every request pauses once and any whose host is private,
//   loopback, link-local or a local name is failed, whether the page, a redirect or a frame asked
//   for it. A main-frame document refused this way is reported so the fetch answers 403.
import type { CDPSession, Page } from '@cloudflare/puppeteer';
import { frameId } from './cdp-internals.js';
import { privateHostReason } from './target-guard.js';

export const BLOCKED_RESOURCE_TYPES = ['Image', 'Media', 'Font'] as const;
const BLOCKED: ReadonlySet<string> = new Set(BLOCKED_RESOURCE_TYPES);

export interface RequestFilterOptions {
  blockResources: boolean;
  guardPrivateNetwork: boolean;
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

function forbiddenReason(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:' && parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
      return `${parsed.protocol} scheme`;
    }
    return privateHostReason(parsed.hostname) ?? undefined;
  } catch {
    return 'unparsable URL';
  }
}

/** Installs the filter on `page`; returns undefined when there is nothing to filter. */
export async function installRequestFilter(page: Page, options: RequestFilterOptions): Promise<RequestFilter | undefined> {
  if (!options.blockResources && !options.guardPrivateNetwork) return undefined;
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
    const reason = options.guardPrivateNetwork ? forbiddenReason(event.request.url) : undefined;
    if (reason === undefined) return reply('Fetch.continueRequest', { requestId: event.requestId });
    if (event.resourceType === 'Document' && event.frameId === frameId(page.mainFrame())) reportForbidden(reason);
    reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
  });
  const patterns = options.guardPrivateNetwork
    ? [{ urlPattern: '*', requestStage: 'Request' as const }]
    : BLOCKED_RESOURCE_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const }));
  await session.send('Fetch.enable', { patterns });
  return { forbiddenNavigation };
}
