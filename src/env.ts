// The Env every part of the deployment receives: bindings, secrets and vars of wrangler.toml, one
// documented field each. Strings as Workers hand them over; api/config.ts turns them into typed
// settings. The browser's Durable Object reads only its binding (browser/fleet/hub.ts, HubEnv).
import type { BrowserDirectory, BrowserHub } from './browser/index.js';
import type { JobLedgerRpc, PageTask, SiteJobRpc } from './shared/job-rpc.js';

export interface Env {
  // Bindings
  /** Browser Rendering binding, driven through @cloudflare/puppeteer. */
  BROWSER: Fetcher;
  /** Durable Objects that keep browser sessions open across requests, several per launch location. */
  BROWSER_HUB: DurableObjectNamespace<BrowserHub>;
  /** One Durable Object per launch location that admits its requests to its hubs (capacity, queue). */
  BROWSER_DIRECTORY: DurableObjectNamespace<BrowserDirectory>;
  /** Per-token request limit (Workers Rate Limiting); optional so tests can run without it. */
  RATE_LIMITER?: RateLimit;
  /** Workers KV: stored renders for max_age (api/cache/); optional so unit tests can run without it. */
  CACHE?: KVNamespace;
  /** One Durable Object per site job: its frontier, seen set and page records (src/jobs/). */
  SITE_JOB: DurableObjectNamespace<SiteJobRpc>;
  /** One Durable Object per token: the jobs it runs at once (MAX_JOBS_PER_TOKEN). */
  JOB_LEDGER: DurableObjectNamespace<JobLedgerRpc>;
  /** Cloudflare Queue carrying a job's page tasks to this Worker's queue handler. */
  PAGE_TASKS: Queue<PageTask>;
  /** R2: the content of a job's pages too large to keep in the job's own storage. */
  JOB_PAGES: R2Bucket;
  // Secrets
  /** Comma-separated accepted bearer tokens; two at once allow rotation. */
  API_TOKENS?: string;
  /** JSON object of named upstream proxies (api/egress.ts). */
  PROXIES?: string;
  /** Key of the job webhooks' HMAC-SHA256 signature (src/jobs/webhook.ts). */
  WEBHOOK_SECRET?: string;
  // Vars
  /** "true" lets targets on private, loopback and local addresses through (local dev and tests only). */
  ALLOW_PRIVATE_NETWORK?: string;
  /** Upper bound for a request's wait_ms, in ms. */
  MAX_WAIT_MS?: string;
  /** How long the main document may take to answer before 504 target_timeout, in ms. */
  NAVIGATION_TIMEOUT_MS?: string;
  /** Upper bound for the returned content, in bytes. */
  MAX_CONTENT_BYTES?: string;
  /** "false" lets pages download images, media and fonts (blocked by default: output cannot contain them). */
  BLOCK_MEDIA?: string;
  /** A shared browser is closed after this long without requests, in ms. */
  BROWSER_IDLE_CLOSE_MS?: string;
  /** Seconds a render is stored; the upper bound for max_age. */
  MAX_CACHE_AGE?: string;
  /** Browsers per launch location. */
  MAX_BROWSERS_PER_LOCATION?: string;
  /** Pages one browser holds at once, prepared pages included. */
  MAX_PAGES_PER_BROWSER?: string;
  /** How long a request may wait for a page before 503, in ms. */
  QUEUE_TIMEOUT_MS?: string;
  /** Viewports a request with scroll: true scrolls through at most. */
  MAX_SCROLL_STEPS?: string;
  /** Largest PDF converted, in bytes. */
  MAX_PDF_BYTES?: string;
  /** Pages of a PDF converted at most. */
  MAX_PDF_PAGES?: string;
  /** Upper bound for a crawl's limit. */
  MAX_CRAWL_PAGES?: string;
  /** URLs of one batch at most. */
  MAX_BATCH_URLS?: string;
  /** Jobs one token runs at once. */
  MAX_JOBS_PER_TOKEN?: string;
  /** Seconds a job and its pages stay readable. */
  JOB_RETENTION_S?: string;
  /** Bytes of page records in one GET /api/jobs/<id> answer. */
  JOB_PAGE_BYTES?: string;
  /** Least time between page starts on one host without Crawl-delay, in ms. */
  CRAWL_HOST_DELAY_MS?: string;
  /** Pages of one host fetched at once by a job. */
  CRAWL_HOST_CONCURRENCY?: string;
  /** CSS px of a full-page screenshot at most. */
  MAX_SCREENSHOT_HEIGHT?: string;
  /** Local development and tests only: page tasks whose URL holds it fail (src/jobs/task-fault.ts). */
  TEST_PAGE_TASK_FAULT?: string;
}

// Keeps Env in step with wrangler.toml: WorkerBindings is generated from it (`npm run types`, checked
// in CI by `npm run types:check`); a binding or var missing here fails to compile.
type MissingFromEnv = Exclude<keyof WorkerBindings, keyof Env>;
const envCoversBindings: [MissingFromEnv] extends [never] ? true : MissingFromEnv = true;
void envCoversBindings;
