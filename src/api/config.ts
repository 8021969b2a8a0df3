// Deployment configuration: readConfig() turns the Env's strings (src/env.ts) into typed settings once
// per request (Workers hand env to each request, so this is a pure function, not module state).
// Defaults are docs/api.md's "Configuration" table; the PROXIES secret is parsed by egress.ts.
import type { Env } from '../env.js';
import { ConfigError } from '../errors.js';
import { parseProxies, type UpstreamProxy } from './egress.js';

export interface Config {
  apiTokens: string[];
  /** Upstream proxies by name; "fast_dc" is here only when PROXIES redefines it. */
  proxies: ReadonlyMap<string, UpstreamProxy>;
  allowPrivateNetwork: boolean;
  maxWaitMs: number;
  navigationTimeoutMs: number;
  maxContentBytes: number;
  blockMedia: boolean;
  browserIdleCloseMs: number;
  /** Seconds a render is stored, and the largest max_age a request may ask for. */
  maxCacheAge: number;
  /** Browsers (each held by a hub) per launch location. */
  maxBrowsersPerLocation: number;
  /** Pages one browser holds at once, prepared pages included. */
  maxPagesPerBrowser: number;
  /** How long a request may wait for a page before 503 browser_unavailable, in ms. */
  queueTimeoutMs: number;
  /** Viewports `scroll: true` scrolls through at most. */
  maxScrollSteps: number;
  /** Largest PDF converted, in bytes. */
  maxPdfBytes: number;
  /** Pages of a PDF converted at most. */
  maxPdfPages: number;
  /** CSS px of a full-page screenshot at most; a taller page is cut there. */
  maxScreenshotHeight: number;
  /** The site operations' bounds (docs/api.md "Sites"). */
  sites: SiteLimits;
}

export interface SiteLimits {
  /** Upper bound for a crawl's `limit`. */
  maxCrawlPages: number;
  /** URLs of one batch at most. */
  maxBatchUrls: number;
  /** Jobs one token runs at once (queued or running). */
  maxJobsPerToken: number;
  /** Seconds a job and its pages stay readable. */
  jobRetentionS: number;
  /** Bytes of JSON page records in one GET /api/jobs/<id> answer. */
  jobPageBytes: number;
  /** Least time between page starts on one host without Crawl-delay, in ms. */
  crawlHostDelayMs: number;
  /** Pages of one host fetched at once. */
  crawlHostConcurrency: number;
  /** WEBHOOK_SECRET: the key of the webhooks' signature; without it a job takes no webhook. */
  webhookSecret?: string;
}

/**
 * Pages a browser holds, prepared ones included: the knee measured on the benchmark machine (8 pages
 * loading at once) plus the 2 prepared pages that run kept (docs/fleet.md "Defaults").
 */
export const DEFAULT_MAX_PAGES_PER_BROWSER = 10;

function parseTokens(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  return parseIntAtLeast(name, raw, fallback, 1);
}

/** Like parsePositiveInt, with 0 allowed: a bound of time that may be lifted. */
function parseNonNegativeInt(name: string, raw: string | undefined, fallback: number): number {
  return parseIntAtLeast(name, raw, fallback, 0);
}

function parseIntAtLeast(name: string, raw: string | undefined, fallback: number, least: 0 | 1): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < least) {
    throw new ConfigError(`${name} must be a ${least === 0 ? 'non-negative' : 'positive'} integer`);
  }
  return value;
}

function flag(raw: string | undefined): string | undefined {
  return raw?.trim().toLowerCase();
}

/** Typed settings from env; throws ConfigError on a malformed var or secret (the app answers 500). */
export function readConfig(env: Partial<Env>): Config {
  return {
    apiTokens: parseTokens(env.API_TOKENS),
    proxies: parseProxies(env.PROXIES),
    allowPrivateNetwork: flag(env.ALLOW_PRIVATE_NETWORK) === 'true',
    maxWaitMs: parsePositiveInt('MAX_WAIT_MS', env.MAX_WAIT_MS, 60_000),
    navigationTimeoutMs: parsePositiveInt('NAVIGATION_TIMEOUT_MS', env.NAVIGATION_TIMEOUT_MS, 30_000),
    maxContentBytes: parsePositiveInt('MAX_CONTENT_BYTES', env.MAX_CONTENT_BYTES, 10 * 1024 * 1024),
    blockMedia: flag(env.BLOCK_MEDIA) !== 'false',
    browserIdleCloseMs: parsePositiveInt('BROWSER_IDLE_CLOSE_MS', env.BROWSER_IDLE_CLOSE_MS, 60_000),
    maxCacheAge: parsePositiveInt('MAX_CACHE_AGE', env.MAX_CACHE_AGE, 86_400),
    maxBrowsersPerLocation: parsePositiveInt('MAX_BROWSERS_PER_LOCATION', env.MAX_BROWSERS_PER_LOCATION, 4),
    maxPagesPerBrowser: parsePositiveInt('MAX_PAGES_PER_BROWSER', env.MAX_PAGES_PER_BROWSER, DEFAULT_MAX_PAGES_PER_BROWSER),
    queueTimeoutMs: parsePositiveInt('QUEUE_TIMEOUT_MS', env.QUEUE_TIMEOUT_MS, 5000),
    maxScrollSteps: parsePositiveInt('MAX_SCROLL_STEPS', env.MAX_SCROLL_STEPS, 10),
    maxPdfBytes: parsePositiveInt('MAX_PDF_BYTES', env.MAX_PDF_BYTES, 25 * 1024 * 1024),
    maxPdfPages: parsePositiveInt('MAX_PDF_PAGES', env.MAX_PDF_PAGES, 300),
    maxScreenshotHeight: parsePositiveInt('MAX_SCREENSHOT_HEIGHT', env.MAX_SCREENSHOT_HEIGHT, 32768),
    sites: {
      maxCrawlPages: parsePositiveInt('MAX_CRAWL_PAGES', env.MAX_CRAWL_PAGES, 10_000),
      maxBatchUrls: parsePositiveInt('MAX_BATCH_URLS', env.MAX_BATCH_URLS, 1000),
      maxJobsPerToken: parsePositiveInt('MAX_JOBS_PER_TOKEN', env.MAX_JOBS_PER_TOKEN, 5),
      jobRetentionS: parsePositiveInt('JOB_RETENTION_S', env.JOB_RETENTION_S, 604_800),
      jobPageBytes: parsePositiveInt('JOB_PAGE_BYTES', env.JOB_PAGE_BYTES, 10 * 1024 * 1024),
      crawlHostDelayMs: parseNonNegativeInt('CRAWL_HOST_DELAY_MS', env.CRAWL_HOST_DELAY_MS, 250),
      crawlHostConcurrency: parsePositiveInt('CRAWL_HOST_CONCURRENCY', env.CRAWL_HOST_CONCURRENCY, 4),
      ...(env.WEBHOOK_SECRET ? { webhookSecret: env.WEBHOOK_SECRET } : {}),
    },
  };
}
