// Filters the browser's own requests through CDP's Fetch domain, in a session of its own (puppeteer's
// session stays untouched):
// - heavy resources the output cannot contain (images, media, fonts) are not downloaded; the elements
//   stay in the DOM. Alone, only those resource types pause, so other requests are never held up.
// - the private-network guard (guard/policy.ts): with it on, every request pauses once and any the
//   guard refuses is failed, whether the page, a redirect or a frame asked for it. A main-frame
//   document refused this way is reported so the fetch answers 403.
// - password challenges: an upstream proxy's gets the proxy's credentials (once per request: a refusal
//   then shows as the proxy's 407 page), a target's never does: it is declined, and the browser shows
//   the target's own 401 page. (puppeteer's `page.authenticate` answers any challenge with its
//   credentials, so a page could have collected the proxy's password through a framed 401.) Targets'
//   challenges reach this filter when every request pauses (guard on, or a proxy with credentials).
import type { CDPSession, Page } from '@cloudflare/puppeteer';
import type { TargetGuard } from '../guard/policy.js';
import { frameId } from './cdp-internals.js';

export const BLOCKED_RESOURCE_TYPES = ['Image', 'Media', 'Font'] as const;
const BLOCKED: ReadonlySet<string> = new Set(BLOCKED_RESOURCE_TYPES);

export interface RequestFilterOptions {
  blockResources: boolean;
  guard: TargetGuard;
  /** The upstream proxy's credentials, when the page goes through a proxy that wants them. */
  proxyCredentials?: { username: string; password: string };
}

export interface RequestFilter {
  /** Resolves with a reason when the main frame was sent to a forbidden host (e.g. by a redirect). */
  forbiddenNavigation: Promise<string>;
}

interface AuthRequiredEvent {
  requestId: string;
  authChallenge: { source?: 'Server' | 'Proxy' };
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
  const { proxyCredentials } = options;
  // Every request pauses when the guard judges it; with a proxy's credentials too, since a challenge
  // is only reported for a request that pauses.
  const pausesAll = guarded || proxyCredentials !== undefined;
  if (!options.blockResources && !pausesAll) return undefined;
  let reportForbidden!: (reason: string) => void;
  const forbiddenNavigation = new Promise<string>((resolve) => (reportForbidden = resolve));
  const session: CDPSession = await page.createCDPSession();
  const reply = (method: 'Fetch.failRequest' | 'Fetch.continueRequest' | 'Fetch.continueWithAuth', params: object) =>
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
  const answeredProxy = new Set<string>();
  session.on('Fetch.authRequired', ({ requestId, authChallenge }: AuthRequiredEvent) => {
    const firstProxyChallenge = authChallenge.source === 'Proxy' && proxyCredentials !== undefined && !answeredProxy.has(requestId);
    if (!firstProxyChallenge) return reply('Fetch.continueWithAuth', { requestId, authChallengeResponse: { response: 'CancelAuth' } });
    answeredProxy.add(requestId);
    reply('Fetch.continueWithAuth', { requestId, authChallengeResponse: { response: 'ProvideCredentials', ...proxyCredentials } });
  });
  const patterns = pausesAll
    ? [{ urlPattern: '*', requestStage: 'Request' as const }]
    : BLOCKED_RESOURCE_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const }));
  await session.send('Fetch.enable', { patterns, handleAuthRequests: true });
  return { forbiddenNavigation };
}
