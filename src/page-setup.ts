// Opens the isolated browser context and page one request renders in, ready to navigate: its own
// cookies, storage and cache (a fresh context), dialogs answered, heavy resources blocked, proxy
// and credentials applied. Opening is kept apart from loading so a page can be prepared ahead of
// time, before the request that will use it arrives.
import type { Browser, BrowserContext, Page } from '@cloudflare/puppeteer';
import { blockHeavyResources } from './resource-blocking.js';

export interface ProxyRoute {
  name: string;
  server: string;
  username?: string;
  password?: string;
}

export interface PageSetupOptions {
  proxy?: ProxyRoute;
  blockResources: boolean;
}

export interface PreparedPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Closes the context and with it the page and everything the target stored. Never throws. */
  close(): Promise<void>;
}

export async function preparePage(browser: Browser, options: PageSetupOptions): Promise<PreparedPage> {
  const context = await browser.createBrowserContext(options.proxy ? { proxyServer: options.proxy.server } : {});
  const close = () => context.close().catch(() => undefined);
  try {
    const page = await context.newPage();
    // Dialogs (alert, confirm, prompt, beforeunload) would block the page until answered.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    if (options.proxy?.username !== undefined) {
      await page.authenticate({ username: options.proxy.username, password: options.proxy.password ?? '' });
    }
    if (options.blockResources) await blockHeavyResources(page);
    return { browser, context, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
