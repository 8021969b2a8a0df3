// Opens the isolated browser context and page one request renders in, ready to navigate: its own
// cookies, storage and cache (a fresh context), dialogs answered, requests filtered (heavy
// resources, private-network guard, password challenges), proxy and credentials applied, and lazy
// loaders made to see every element in view (in-page/preload/in-view.ts, in every frame). Opening is
// kept apart from loading so a page can be prepared ahead of time, before the request that will use
// it arrives.
import type { Browser, BrowserContext, Page } from '@cloudflare/puppeteer';
import IN_VIEW_PRELOAD from '../../build/preload-in-view.js?raw';
import { targetGuard, type TargetGuard } from '../guard/policy.js';
import { newPageWithoutBrowserUi } from './browser-ui.js';
import type { PageSetup } from './render-call.js';
import { installRequestFilter } from './request-filter.js';

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
    const [filter] = await Promise.all([
      installRequestFilter(page, { blockResources: setup.blockResources, guard, proxyCredentials }),
      // puppeteer adds it to every frame's target too, out-of-process ones as they attach.
      page.evaluateOnNewDocument(IN_VIEW_PRELOAD),
    ]);
    const forbiddenNavigation = filter?.forbiddenNavigation ?? new Promise<string>(() => undefined);
    const usable = () => !crashed && !page.isClosed();
    return { browser, context, page, proxyName: setup.proxy?.name, guard, forbiddenNavigation, usable, close };
  } catch (error) {
    await close();
    throw error;
  }
}
