// What crosses between the Worker, the queue handler and a job's Durable Object (docs/api.md "Sites"):
// plain data and the two Durable Objects' RPC surfaces, with no imports, so src/env.ts can name the
// bindings without pulling the job engine (and the fetch it runs) into every module that reads Env.

/** A JSON value: what RPC carries of the fields a job holds as given. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type JobKind = 'crawl' | 'batch';
export type JobStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';
export type RecordState = 'fetched' | 'failed' | 'blocked' | 'skipped' | 'disallowed';

export interface JobCounts {
  queued: number;
  fetched: number;
  failed: number;
  blocked: number;
  skipped: number;
  disallowed: number;
}

/** A job as it starts: who owns it, what to fetch and the bounds it runs under. */
export interface JobSpec {
  id: string;
  kind: JobKind;
  /** Fingerprint of the token that started it: the only one that sees it. */
  owner: string;
  /** Epoch ms. */
  createdAt: number;
  /** The job's `page` fields as validated; each task reads them into a fetch request again. */
  page: JsonObject;
  /** The URLs to start from: a batch's distinct URLs (by normal form), as given. */
  urls: string[];
  retentionS: number;
  hostDelayMs: number;
  hostConcurrency: number;
  /** The browser directory that admits its pages (their launch location's): the queue handler asks it before a page starts. */
  fleet?: string;
  /** A crawl's discovery; absent for a batch. */
  crawl?: CrawlSpec;
  webhook?: WebhookSpec;
}

/** Where a job's events go (docs/api.md "Sites"). */
export interface WebhookSpec {
  url: string;
  events: ('started' | 'page' | 'completed' | 'failed')[];
  metadata: JsonValue;
  /** ALLOW_PRIVATE_NETWORK when the job started: the receiver passes the same guard as targets. */
  allowPrivateNetwork: boolean;
}

/** What a crawl follows and obeys (docs/api.md "Sites"). */
export interface CrawlSpec {
  limit: number;
  maxDepth: number;
  includePaths: string[];
  excludePaths: string[];
  includeSubdomains: boolean;
  sitemap: 'include' | 'skip' | 'only';
  ignoreQuery: boolean;
  /** ALLOW_PRIVATE_NETWORK when the job started: robots.txt and sitemaps pass the same guard as targets. */
  allowPrivateNetwork: boolean;
}

/** One page of a job, on the queue. */
export interface PageTask {
  jobId: string;
  /** The URL's normal form: the job's key for it. */
  key: string;
  url: string;
  depth: number;
  /** The page's links and canonical URL are wanted (a crawl that goes deeper from here). */
  follow?: boolean;
  /** The job's browser directory (JobSpec.fleet). */
  fleet?: string;
}

/** What a page task came to. */
export interface TaskReport {
  key: string;
  state: 'fetched' | 'failed' | 'blocked';
  finalUrl: string | null;
  status: number | null;
  /** The content, when small enough for the job's own storage. */
  data: string | null;
  /** The R2 key of the content, when it was too large for the job's own storage. */
  dataKey?: string;
  /** UTF-8 bytes of the content, wherever it is kept. */
  dataBytes: number;
  metadata?: JsonValue;
  error?: { code: string; message: string };
  blocked?: { vendor: string; kind: string };
  /** The error is one worth another try (503 browser_unavailable, 504). */
  retryable?: boolean;
  /** With `follow`: the page's links, absolute, in document order. */
  links?: string[];
  /** With `follow`: the page's canonical URL, when it names one. */
  canonical?: string;
}

/** A page record as the job keeps it; `dataKey` is resolved from R2 by the Worker before answering. */
export interface StoredPageRecord {
  url: string;
  state: RecordState;
  depth: number;
  final_url: string | null;
  status: number | null;
  data: string | null;
  dataKey?: string;
  metadata?: JsonValue;
  error?: { code: string; message: string };
  blocked?: { vendor: string; kind: string };
}

export interface JobView {
  id: string;
  kind: JobKind;
  status: JobStatus;
  created_at: string;
  counts: JobCounts;
}

export interface JobPageOfRecords {
  job: JobView;
  /** Each a StoredPageRecord as JSON, as the job keeps it (parsed once, by the Worker). */
  records: string[];
  nextCursor: string | null;
}

/** The job's Durable Object, as the Worker and the queue handler call it. */
export interface SiteJobRpc extends Rpc.DurableObjectBranded {
  start(spec: JobSpec): Promise<void>;
  /** Records after `cursor`, at most `maxBytes` of them (at least one); undefined for another owner or no job. */
  read(owner: string, cursor: number, maxBytes: number): Promise<JobPageOfRecords | undefined>;
  cancel(owner: string): Promise<JobView | undefined>;
  /** The `page` fields as JSON when the task may start; undefined when the job is over or the task is not its. */
  taskStarting(key: string): Promise<string | undefined>;
  report(report: TaskReport): Promise<void>;
}

/** One per token: the jobs it runs at once. */
export interface JobLedgerRpc extends Rpc.DurableObjectBranded {
  /** Takes a place for `jobId` unless `max` are taken. */
  reserve(jobId: string, max: number, expiresAt: number): Promise<boolean>;
  release(jobId: string): Promise<void>;
}
