import { describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserWorker } from '@cloudflare/puppeteer';
import { acquireBrowser, type LaunchBrowser } from '../../src/browser-session.js';
import { ApiError } from '../../src/errors.js';

const binding = { fetch } as BrowserWorker;

describe('acquireBrowser', () => {
  it('passes the location to the launch and closes the browser on release', async () => {
    const close = vi.fn(async () => undefined);
    const launch = vi.fn<LaunchBrowser>(async () => ({ close }) as unknown as Browser);
    const lease = await acquireBrowser(binding, 'DE', launch);
    expect(launch).toHaveBeenCalledWith(binding, { location: 'DE' });
    await lease.release();
    expect(close).toHaveBeenCalledOnce();
  });

  it('turns the binding refusing a browser into 503 browser_unavailable with Retry-After', async () => {
    const launch: LaunchBrowser = async () => {
      throw new Error('Unable to create new browser: code: 429: message: Too many browsers already running');
    };
    const error = await acquireBrowser(binding, undefined, launch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('browser_unavailable');
    expect((error as ApiError).headers['Retry-After']).toBe('5');
  });

  it('release never throws when the browser is already gone', async () => {
    const launch: LaunchBrowser = async () => ({ close: async () => Promise.reject(new Error('gone')) }) as unknown as Browser;
    const lease = await acquireBrowser(binding, undefined, launch);
    await expect(lease.release()).resolves.toBeUndefined();
  });
});
