// Filters the browser's own requests through CDP's Fetch domain, in a session of its own (puppeteer's
// session stays untouched):
// - heavy resources the output cannot contain (images, media, fonts) are not downloaded; the elements
//   stay in the DOM. Alone, only those resource types pause, so other requests are never held up; a
//   request that shows them takes their patterns away, so they do not pause either.
// - the private-network guard (guard/policy.ts): with it on, every request pauses once and any the
//   guard refuses is failed, whether the page, a redirect or a frame asked for it. A main-frame
//   document refused this way is reported so the fetch answers 403. Not through a proxy, every
//   response other than the main document's (main-document.ts judges that one by its address) also
//   pauses once its headers are in, and is failed unless the browser reported it came from a public
//   address (a name that resolves privately): the page sees a network error, and nothing of the
//   answer reaches it (response-addresses.ts). WebSockets never reach this filter (CDP's Fetch
//   domain does not see their handshakes): a preload refuses them by URL in the page
//   (in-page/socket-guard.ts), and the browser's own Local Network Access checks by address
//   (docs/guard.md "Inside the browser").
// - password challenges: an upstream proxy's gets the proxy's credentials (once per request: a refusal
//   then shows as the proxy's 407 page), a target's never does: it is declined, and the browser shows
//   the target's own 401 page. (puppeteer's `page.authenticate` answers any challenge with its
//   credentials, so a page could have collected the proxy's password through a framed 401.) Targets'
//   challenges reach this filter when every request pauses (guard on, or a proxy with credentials).
// - documents that may be PDFs: every document response pauses once its headers are in, and a
//   main-frame one whose headers say it may be a PDF is held (held-document.ts) for the load to read,
//   before the browser downloads it or shows a viewer; any other response goes on at once.
// - the caller's extra headers (origin-headers.ts): once a request gives some, every request pauses
//   so that those to the target's own origin get them and no other does. Only then: a pause costs
//   each request a round trip to this session.
import type { CDPSession, Page } from '@cloudflare/puppeteer';
import { mayBePdf } from '../../shared/content-type.js';
import type { TargetGuard } from '../../guard/policy.js';
import { frameId, frameSession, pageSession } from '../cdp-internals.js';
import { holdDocument, type HeldDocument } from './held-document.js';
import { isRedirect } from './main-document.js';
import type { OriginHeaders } from './origin-headers.js';
import { collectResponseAddresses } from './response-addresses.js';

export const BLOCKED_RESOURCE_TYPES = ['Image', 'Media', 'Font'] as const;
const BLOCKED: ReadonlySet<string> = new Set(BLOCKED_RESOURCE_TYPES);
// How long a response waits for the browser's report of its address (it comes in another session, in
// either order, within milliseconds); one never reported is refused. Generous for a slow machine.
const ADDRESS_REPORT_WAIT_MS = 10_000;

export interface RequestFilterOptions {
  blockResources: boolean;
  guard: TargetGuard;
  /** The upstream proxy's credentials, when the page goes through a proxy that wants them. */
  proxyCredentials?: { username: string; password: string };
}

export interface RequestFilter {
  /** Resolves with a reason when the main frame was sent to a forbidden host (e.g. by a redirect). */
  forbiddenNavigation: Promise<string>;
  /** Resolves with the first main-frame document response that may be a PDF, held unread. */
  heldDocument: Promise<HeldDocument>;
  /** Sends the caller's extra headers as `rule` says, from the next request on; every request pauses from then. */
  sendHeaders(rule: OriginHeaders): Promise<void>;
  /**
   * Lets this page's images, media and fonts load after all, for a request that shows them (its
   * images' sizes, a screenshot); called before it navigates.
   */
  loadMedia(): Promise<void>;
}

interface AuthRequiredEvent {
  requestId: string;
  authChallenge: { source?: 'Server' | 'Proxy' };
}

interface RequestPausedEvent {
  requestId: string;
  /** The Network domain's id for the same request (its responseReceivedExtraInfo names it). */
  networkId?: string;
  request: { url: string; headers?: Record<string, string> };
  resourceType: string;
  frameId?: string;
  /** Present when the request paused at the Response stage. */
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

function headerRecord(headers: { name: string; value: string }[] = []): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
  }
  return record;
}

/** Installs the filter on `page`. */
export async function installRequestFilter(page: Page, options: RequestFilterOptions): Promise<RequestFilter> {
  const guarded = options.guard.checksBrowserRequests;
  const { proxyCredentials } = options;
  // Every request pauses when the guard judges it; with a proxy's credentials too, since a challenge
  // is only reported for a request that pauses.
  const pausesAll = guarded || proxyCredentials !== undefined;
  // Prepared before its request is known (a spare page): a request that shows media turns it off.
  let blocksResources = options.blockResources;
  let reportForbidden!: (reason: string) => void;
  const forbiddenNavigation = new Promise<string>((resolve) => (reportForbidden = resolve));
  let reportHeld!: (held: HeldDocument) => void;
  const heldDocument = new Promise<HeldDocument>((resolve) => (reportHeld = resolve));
  let held = false;
  const session: CDPSession = await page.createCDPSession();
  const reply = (method: 'Fetch.failRequest' | 'Fetch.continueRequest' | 'Fetch.continueWithAuth', params: object) =>
    // The page may already be closing; a failed reply changes nothing then.
    void session.send(method, params as never).catch(() => undefined);

  const judgesAddresses = options.guard.checksResponseAddresses;
  const addresses = collectResponseAddresses();
  // A response still waiting for its report when the page closes is answered then, not after its wait.
  page.on('close', () => addresses.dispose());
  const watched = new Set<CDPSession>();
  // A response the browser's cache serves has no address report (and the cache's is only known once
  // the page has it), so the cache is off: every response comes from the network, and is reported.
  // The context is the request's own, so the cache would only ever hold this page's own responses.
  const watch = (target: CDPSession | undefined) => {
    if (target === undefined || watched.has(target)) return;
    watched.add(target);
    addresses.watch(target);
    void target.send('Network.setCacheDisabled', { cacheDisabled: true }).catch(() => undefined);
  };
  if (judgesAddresses) {
    // The page's session and every frame's: an out-of-process frame's requests are reported in its own.
    watch(pageSession(page));
    for (const frame of page.frames()) watch(frameSession(frame));
    page.on('frameattached', (frame) => watch(frameSession(frame)));
  }

  // A response from a private address is failed before the page reads a byte of it.
  const onAddressedResponse = async (event: RequestPausedEvent) => {
    const space = event.networkId === undefined ? undefined : await addresses.next(event.networkId, ADDRESS_REPORT_WAIT_MS);
    if (options.guard.documentAddressSpaceRefusal(space) === undefined) return onResponse(event);
    reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
  };

  const onResponse = (event: RequestPausedEvent) => {
    const status = event.responseStatusCode ?? 0;
    const headers = headerRecord(event.responseHeaders);
    const mainDocument = event.resourceType === 'Document' && event.frameId === frameId(page.mainFrame());
    if (!mainDocument || event.responseErrorReason !== undefined || isRedirect(status, headers) || !mayBePdf(headers)) {
      return reply('Fetch.continueRequest', { requestId: event.requestId });
    }
    // One document per request: a later one (the page sent itself on) is not taken.
    if (held) return reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' });
    held = true;
    const { requestId, request } = event;
    reportHeld(holdDocument(session, { requestId, url: request.url, status, headers }));
  };

  session.on('Fetch.requestPaused', (event: RequestPausedEvent) => {
    if (event.responseStatusCode !== undefined || event.responseErrorReason !== undefined) {
      const mainDocument = event.resourceType === 'Document' && event.frameId === frameId(page.mainFrame());
      const judged = judgesAddresses && !mainDocument && event.responseErrorReason === undefined;
      return judged ? void onAddressedResponse(event) : onResponse(event);
    }
    if (blocksResources && BLOCKED.has(event.resourceType)) {
      return reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
    }
    const mainDocument = event.resourceType === 'Document' && event.frameId === frameId(page.mainFrame());
    const reason = options.guard.browserRequestRefusal(event.request.url);
    if (reason === undefined) {
      const headers = headerRule?.headersFor(event.request.url, event.request.headers ?? {}, mainDocument);
      return reply('Fetch.continueRequest', { requestId: event.requestId, ...(headers === undefined ? {} : { headers }) });
    }
    if (mainDocument) reportForbidden(reason);
    reply('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' });
  });
  const answeredProxy = new Set<string>();
  session.on('Fetch.authRequired', ({ requestId, authChallenge }: AuthRequiredEvent) => {
    const firstProxyChallenge = authChallenge.source === 'Proxy' && proxyCredentials !== undefined && !answeredProxy.has(requestId);
    if (!firstProxyChallenge) return reply('Fetch.continueWithAuth', { requestId, authChallengeResponse: { response: 'CancelAuth' } });
    answeredProxy.add(requestId);
    reply('Fetch.continueWithAuth', { requestId, authChallengeResponse: { response: 'ProvideCredentials', ...proxyCredentials } });
  });
  const responsePatterns = judgesAddresses
    ? [{ urlPattern: '*', requestStage: 'Response' as const }]
    : [{ resourceType: 'Document' as const, requestStage: 'Response' as const }];
  const enable = (everyRequest: boolean) => {
    const requestPatterns = everyRequest
      ? [{ urlPattern: '*', requestStage: 'Request' as const }]
      : blocksResources
        ? BLOCKED_RESOURCE_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const }))
        : [];
    return session.send('Fetch.enable', { patterns: [...requestPatterns, ...responsePatterns], handleAuthRequests: true });
  };
  let headerRule: OriginHeaders | undefined;
  const pausesEveryRequest = () => pausesAll || headerRule !== undefined;
  const sendHeaders = async (rule: OriginHeaders) => {
    headerRule = rule;
    if (!pausesAll) await enable(true);
  };
  await enable(pausesAll);
  // The blocked types' own patterns go; where every request pauses anyway (the guard judges each, or
  // extra headers are sent) they pause with the rest and are let through from then on.
  const loadMedia = async () => {
    if (!blocksResources) return;
    blocksResources = false;
    if (!pausesEveryRequest()) await enable(false);
  };
  // The listeners go with the page, which is closed with its context after every request.
  return { forbiddenNavigation, heldDocument, sendHeaders, loadMedia };
}
