// Getting a browser from the Browser Rendering binding and giving it back. Model for now: one
// browser session per request, launched in the requested location and closed afterwards, so a
// session is never shared across locations. A failed launch (the binding's limits answer 429,
// which @cloudflare/puppeteer throws as a plain Error) becomes 503 browser_unavailable.
import puppeteer, { type Browser, type BrowserWorker, type WorkersLaunchOptions } from '@cloudflare/puppeteer';
import { ApiError } from './errors.js';
import type { BrowserLocation } from './locations.js';

export type LaunchBrowser = (binding: BrowserWorker, options?: WorkersLaunchOptions) => Promise<Browser>;

export interface BrowserLease {
  browser: Browser;
  /** Closes the session; never throws. */
  release(): Promise<void>;
}

/** Seconds a client should wait before retrying when no browser could be had. */
export const BROWSER_RETRY_AFTER_SECONDS = 5;

export async function acquireBrowser(
  binding: BrowserWorker,
  location: BrowserLocation | undefined,
  launch: LaunchBrowser = (endpoint, options) => puppeteer.launch(endpoint, options),
): Promise<BrowserLease> {
  let browser: Browser;
  try {
    browser = await launch(binding, location === undefined ? {} : { location });
  } catch (cause) {
    throw new ApiError('browser_unavailable', undefined, {
      cause,
      headers: { 'Retry-After': String(BROWSER_RETRY_AFTER_SECONDS) },
    });
  }
  return {
    browser,
    async release() {
      await browser.close().catch(() => undefined);
    },
  };
}
