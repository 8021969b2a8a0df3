// Opens the isolated browser context and page one request renders in, ready to navigate: its own
// cookies, storage and cache (a fresh context), dialogs answered, requests filtered (heavy
// resources, private-network guard, password challenges; documents that may be PDFs held), proxy and credentials applied, lazy
// loaders made to see every element in view (in-page/preload/in-view.ts, in every frame), and
// cookie-consent dialogs declined (consent/engine/preload.ts, reporting to consent/watch.ts; taken
// away again before navigation for a request that keeps them), and, with the private-network guard
// on, WebSockets to private hosts refused in the page and its dedicated workers
// (in-page/preload/socket-guard.ts: CDP's request filter never sees a socket). Opening is
// kept apart from loading so a page can be prepared ahead of time, before the request that will use
// it arrives.
import type { Browser, BrowserContext, Page } from '@cloudflare/puppeteer';
import CONSENT_PRELOAD from '../../../build/preload-consent.js?raw';
import IN_VIEW_PRELOAD from '../../../build/preload-in-view.js?raw';
import SOCKET_GUARD_PRELOAD from '../../../build/preload-socket-guard.js?raw';
import { targetGuard, type TargetGuard } from '../../guard/policy.js';
import { newPageWithoutBrowserUi } from './browser-ui.js';
import { consentRound } from '../../consent/round.js';
import { consentRulesDesk, rulesRequest } from '../../consent/site-rules.js';
import { type ConsentWatch, watchConsent } from '../../consent/watch.js';
import { CONSENT_BINDING } from '../../in-page/protocol.js';
import type { HeldDocument } from './held-document.js';
import type { PageSetup } from '../render-call.js';
import { installRequestFilter } from './request-filter.js';
import type { Visit } from '../../shared/visit.js';
import { shapeVisit } from './visit-setup.js';
import { preloadWorkers } from './worker-preload.js';

export interface PreparedPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The upstream proxy's name when the page goes through one (its failures are proxy_error). */
  proxyName?: string;
  /** The private-network policy this page was set up with. */
  guard: TargetGuard;
  /** Resolves with a reason when the main frame was sent to a forbidden host; never otherwise. */
  forbiddenNavigation: Promise<string>;
  /** Resolves with the main document's response, unread, when its headers say it may be a PDF; never otherwise. */
  heldDocument: Promise<HeldDocument>;
  /** Lets images, media and fonts load after all (before navigation): the request shows them. */
  loadMedia(): Promise<void>;
  /** What the page reports of its cookie-consent dialogs. */
  consent: ConsentWatch;
  /** Takes the consent preload away, so the next document keeps its dialogs (consent: "keep"). */
  keepConsentDialogs(): Promise<void>;
  /** One consent detection round in every frame, each dialog found answered (nothing once dialogs are kept). */
  consentRound(): Promise<void>;
  /** Applies the request's device, viewport, cookies and extra headers before navigating to `url` (visit-setup.ts). */
  shapeVisit(visit: Visit, url: string): Promise<void>;
  /** False once the page is closed or its tab crashed (a prepared page can crash before it is used). */
  usable(): boolean;
  /** Closes the context and with it the page and everything the target stored. Never throws. */
  close(): Promise<void>;
}

export async function preparePage(browser: Browser, setup: PageSetup): Promise<PreparedPage> {
  const context = await browser.createBrowserContext(setup.proxy ? { proxyServer: setup.proxy.server } : {});
  const close = () => context.close().catch(() => undefined);
  try {
    const page = await newPageWithoutBrowserUi(context);
    // Dialogs (alert, confirm, prompt, beforeunload) would block the page until answered.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    let crashed = false;
    page.on('error', () => (crashed = true));
    const guard = targetGuard(setup.guard, setup.proxy !== undefined);
    const proxyCredentials =
      setup.proxy?.username === undefined ? undefined : { username: setup.proxy.username, password: setup.proxy.password ?? '' };
    if (guard.checksBrowserRequests) preloadWorkers(page, SOCKET_GUARD_PRELOAD);
    const consent = watchConsent();
    const answerRules = consentRulesDesk();
    // puppeteer adds the binding and the scripts to every frame's target too, out-of-process ones as
    // they attach; the binding first, so the consent script finds it.
    const [filter, , , consentScript] = await Promise.all([
      installRequestFilter(page, { blockResources: setup.blockResources, guard, proxyCredentials }),
      page.evaluateOnNewDocument(IN_VIEW_PRELOAD),
      guard.checksBrowserRequests ? page.evaluateOnNewDocument(SOCKET_GUARD_PRELOAD) : undefined,
      page
        .exposeFunction(CONSENT_BINDING, (payload: unknown) => {
          // A document that may run a site rule asks for its rules; the others report.
          const request = rulesRequest(payload);
          return request === undefined ? consent.receive(payload) : answerRules(request);
        })
        .then(() => page.evaluateOnNewDocument(CONSENT_PRELOAD)),
    ]);
    let dialogsKept = false;
    const keepConsentDialogs = () => {
      dialogsKept = true;
      return page.removeScriptToEvaluateOnNewDocument(consentScript.identifier);
    };
    const lookForDialogs = () => (dialogsKept ? Promise.resolve() : consentRound(page));
    const { forbiddenNavigation, heldDocument, loadMedia } = filter;
    const usable = () => !crashed && !page.isClosed();
    const proxyName = setup.proxy?.name;
    return {
      browser,
      context,
      page,
      proxyName,
      guard,
      forbiddenNavigation,
      heldDocument,
      loadMedia,
      consent,
      keepConsentDialogs,
      consentRound: lookForDialogs,
      shapeVisit: (visit, url) => shapeVisit(page, filter, visit, url),
      usable,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
