// Opens the isolated browser context and page one request renders in, ready to navigate: its own
// cookies, storage and cache (a fresh context), dialogs answered, requests filtered (heavy
// resources, private-network guard), proxy and credentials applied. Opening is kept apart from
// loading so a page can be prepared ahead of time, before the request that will use it arrives.
import type { Browser, BrowserContext, Page } from '@cloudflare/puppeteer';
import { newPageWithoutBrowserUi } from './browser-ui.js';
import { installRequestFilter } from './request-filter.js';

export interface ProxyRoute {
  name: string;
  server: string;
  username?: string;
  password?: string;
}

export interface PageSetupOptions {
  proxy?: ProxyRoute;
  blockResources: boolean;
  guardPrivateNetwork: boolean;
}

export interface PreparedPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Resolves with a reason when the main frame was sent to a forbidden host; never otherwise. */
  forbiddenNavigation: Promise<string>;
  /** Closes the context and with it the page and everything the target stored. Never throws. */
  close(): Promise<void>;
}

export async function preparePage(browser: Browser, options: PageSetupOptions): Promise<PreparedPage> {
  const context = await browser.createBrowserContext(options.proxy ? { proxyServer: options.proxy.server } : {});
  const close = () => context.close().catch(() => undefined);
  try {
    const page = await newPageWithoutBrowserUi(context);
    // Dialogs (alert, confirm, prompt, beforeunload) would block the page until answered.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    if (options.proxy?.username !== undefined) {
      await page.authenticate({ username: options.proxy.username, password: options.proxy.password ?? '' });
    }
    const filter = await installRequestFilter(page, options);
    const forbiddenNavigation = filter?.forbiddenNavigation ?? new Promise<string>(() => undefined);
    return { browser, context, page, forbiddenNavigation, close };
  } catch (error) {
    await close();
    throw error;
  }
}
