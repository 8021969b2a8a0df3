// One Durable Object per site job (docs/api.md "Sites"): its spec, frontier and seen set (one row per
// URL by normal form), the hosts' pacing, and its page records in order of decision, all in its
// SQLite storage. Its alarm drives it: it starts the URLs that politeness lets start (a page task on
// the queue each), wakes when a paced host frees, and once the job is over and its retention passed,
// deletes everything the job kept (here and in R2). Reports from the queue handler decide each URL.
import { DurableObject } from 'cloudflare:workers';
import { CrawlFrontier } from './crawl-frontier.js';
import { pickStarts, retryBackoffMs, type HostState } from './host-pacing.js';
import type {
  JobCounts,
  JobLedgerRpc,
  JobPageOfRecords,
  JobSpec,
  JobStatus,
  JobView,
  PageTask,
  RecordState,
  StoredPageRecord,
  SiteJobRpc,
  TaskReport,
} from '../shared/job-rpc.js';
import { targetGuard } from '../guard/policy.js';
import { normalizeUrl } from '../sites/url-normal-form.js';
import { jobDataPrefix } from './page-data.js';
import { pumpCandidates, WAITING_BY_HOST_INDEX } from './pump-candidates.js';
import { deliverWebhook, deliveryBackoffMs, MAX_DELIVERY_ATTEMPTS, type WebhookEvent } from './webhook.js';

export interface SiteJobEnv {
  PAGE_TASKS: Queue<PageTask>;
  JOB_LEDGER: DurableObjectNamespace<JobLedgerRpc>;
  JOB_PAGES: R2Bucket;
  WEBHOOK_SECRET?: string;
}

/** Tries a page gets at most: the first and 2 more for 503 browser_unavailable or 504 (docs/api.md "Sites"). */
const MAX_ATTEMPTS = 3;
/** Queue.sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;
const FINISHED: readonly JobStatus[] = ['completed', 'cancelled', 'failed'];

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS job (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
  `CREATE TABLE IF NOT EXISTS frontier (
     key TEXT PRIMARY KEY, url TEXT NOT NULL, depth INTEGER NOT NULL, host TEXT NOT NULL,
     state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, not_before INTEGER NOT NULL DEFAULT 0,
     position INTEGER NOT NULL, counts INTEGER NOT NULL DEFAULT 1)`,
  'CREATE INDEX IF NOT EXISTS frontier_waiting ON frontier (state, position)',
  WAITING_BY_HOST_INDEX,
  'CREATE TABLE IF NOT EXISTS hosts (host TEXT PRIMARY KEY, next_start INTEGER NOT NULL, open INTEGER NOT NULL, delay_ms INTEGER)',
  // Webhook events not yet taken by the receiver, oldest first.
  'CREATE TABLE IF NOT EXISTS deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL)',
  // A crawl's fetched pages by the normal form of their own, final and canonical URLs.
  'CREATE TABLE IF NOT EXISTS landed (key TEXT PRIMARY KEY)',
  'CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL, bytes INTEGER NOT NULL)',
];

export class SiteJob extends DurableObject<SiteJobEnv> implements SiteJobRpc {
  #frontier: CrawlFrontier | undefined;
  /** The spec, parsed once per instance: every RPC and alarm reads it, and it never changes. */
  #specCache: JobSpec | undefined;
  /** Records by state, counted once per instance and kept by #record: a read need not scan every record. */
  #recordCounts: Map<RecordState, number> | undefined;

  constructor(ctx: DurableObjectState, env: SiteJobEnv) {
    super(ctx, env);
    this.#createSchema();
  }

  #createSchema(): void {
    for (const statement of SCHEMA) this.ctx.storage.sql.exec(statement);
  }

  // --- the job's own values ---

  #get(name: string): string | undefined {
    return this.ctx.storage.sql.exec<{ value: string }>('SELECT value FROM job WHERE name = ?', name).toArray()[0]?.value;
  }

  #set(name: string, value: string): void {
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO job (name, value) VALUES (?, ?)', name, value);
  }

  /** The crawl's frontier (its robots.txt book lives as long as this instance). */
  #crawlFrontier(spec: JobSpec): CrawlFrontier | undefined {
    if (spec.crawl === undefined) return undefined;
    this.#frontier ??= new CrawlFrontier(spec.crawl, spec.urls[0]!, {
      sql: this.ctx.storage.sql,
      record: (url, state, depth) => this.#record({ url, state, depth, final_url: null, status: null, data: null }, 0),
    });
    return this.#frontier;
  }

  #spec(): JobSpec | undefined {
    if (this.#specCache !== undefined) return this.#specCache;
    const spec = this.#get('spec');
    this.#specCache = spec === undefined ? undefined : (JSON.parse(spec) as JobSpec);
    return this.#specCache;
  }

  #status(): JobStatus {
    return (this.#get('status') as JobStatus | undefined) ?? 'queued';
  }

  #counts(): JobCounts {
    const sql = this.ctx.storage.sql;
    const counts: JobCounts = { queued: 0, fetched: 0, failed: 0, blocked: 0, skipped: 0, disallowed: 0 };
    counts.queued = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM frontier WHERE state IN ('waiting', 'sent')").one().n;
    for (const [state, n] of this.#recordsByState()) counts[state] = n;
    return counts;
  }

  #recordsByState(): Map<RecordState, number> {
    this.#recordCounts ??= new Map(
      this.ctx.storage.sql
        .exec<{ state: RecordState; n: number }>(
          "SELECT json_extract(record, '$.state') AS state, COUNT(*) AS n FROM records GROUP BY state",
        )
        .toArray()
        .map((row) => [row.state, row.n]),
    );
    return this.#recordCounts;
  }

  #view(spec: JobSpec): JobView {
    return {
      id: spec.id,
      kind: spec.kind,
      status: this.#status(),
      created_at: new Date(spec.createdAt).toISOString(),
      counts: this.#counts(),
    };
  }

  // --- webhook events ---

  /** Queues an event for the job's webhook when it asked for this type; the alarm delivers it. */
  #emit(spec: JobSpec, type: WebhookEvent, data?: unknown): void {
    if (spec.webhook === undefined || !spec.webhook.events.includes(type)) return;
    const body = JSON.stringify({ type, id: spec.id, metadata: spec.webhook.metadata, ...(data === undefined ? {} : { data }) });
    this.ctx.storage.sql.exec('INSERT INTO deliveries (body, next_at) VALUES (?, ?)', body, Date.now());
  }

  /** Delivers the events that are due, oldest first; one that fails waits its backoff. */
  async #deliver(spec: JobSpec): Promise<void> {
    const sql = this.ctx.storage.sql;
    const secret = this.env.WEBHOOK_SECRET;
    if (spec.webhook === undefined) return;
    const guard = targetGuard({ allowPrivateNetwork: spec.webhook.allowPrivateNetwork });
    const due = sql
      .exec<{ seq: number; body: string; attempts: number }>(
        'SELECT seq, body, attempts FROM deliveries WHERE next_at <= ? ORDER BY seq',
        Date.now(),
      )
      .toArray();
    for (const delivery of due) {
      const delivered = secret !== undefined && (await deliverWebhook(spec.webhook.url, delivery.body, secret, guard));
      const attempts = delivery.attempts + 1;
      if (delivered || attempts >= MAX_DELIVERY_ATTEMPTS) sql.exec('DELETE FROM deliveries WHERE seq = ?', delivery.seq);
      else
        sql.exec(
          'UPDATE deliveries SET attempts = ?, next_at = ? WHERE seq = ?',
          attempts,
          Date.now() + deliveryBackoffMs(attempts),
          delivery.seq,
        );
    }
  }

  // --- RPC ---

  async start(spec: JobSpec): Promise<void> {
    if (this.#spec() !== undefined) return; // a repeated start changes nothing
    this.#set('spec', JSON.stringify(spec));
    this.#set('status', 'queued');
    let position = 0;
    this.#emit(spec, 'started');
    // A crawl's frontier is seeded by the first alarm (robots.txt and sitemaps take time).
    for (const url of spec.crawl === undefined ? spec.urls : []) {
      const parsed = new URL(url);
      this.ctx.storage.sql.exec(
        "INSERT OR IGNORE INTO frontier (key, url, depth, host, state, position) VALUES (?, ?, 0, ?, 'waiting', ?)",
        normalizeUrl(url) ?? parsed.href,
        url,
        parsed.host,
        position++,
      );
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  async read(owner: string, cursor: number, maxBytes: number): Promise<JobPageOfRecords | undefined> {
    const spec = this.#spec();
    if (spec === undefined || spec.owner !== owner) return undefined;
    const records: string[] = [];
    let bytes = 0;
    let last = cursor;
    let more = false;
    for (const row of this.ctx.storage.sql.exec<{ seq: number; record: string; bytes: number }>(
      'SELECT seq, record, bytes FROM records WHERE seq > ? ORDER BY seq',
      cursor,
    )) {
      // At least one record per answer, however large, so a cursor always moves on.
      if (records.length > 0 && bytes + row.bytes > maxBytes) {
        more = true;
        break;
      }
      records.push(row.record);
      bytes += row.bytes;
      last = row.seq;
    }
    const finished = FINISHED.includes(this.#status());
    return { job: this.#view(spec), records, nextCursor: more || !finished ? String(last) : null };
  }

  async cancel(owner: string): Promise<JobView | undefined> {
    const spec = this.#spec();
    if (spec === undefined || spec.owner !== owner) return undefined;
    if (!FINISHED.includes(this.#status())) {
      // No new page starts; pages under way may still report and stay readable.
      this.ctx.storage.sql.exec("DELETE FROM frontier WHERE state = 'waiting'");
      await this.#finish(spec, 'cancelled');
    }
    return this.#view(spec);
  }

  async taskStarting(key: string): Promise<string | undefined> {
    const spec = this.#spec();
    if (spec === undefined) return undefined;
    if (FINISHED.includes(this.#status())) return this.#neverStarts(key);
    const row = this.ctx.storage.sql
      .exec<{ state: string; host: string }>('SELECT state, host FROM frontier WHERE key = ?', key)
      .toArray()[0];
    if (row?.state !== 'sent') return undefined;
    // The queue may hand over at once tasks sent a delay apart (one batch, a backlog): the host's
    // pace holds where the page really starts too, so its server never sees them closer.
    const waitMs = this.#reserveStart(spec, row.host);
    if (waitMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (FINISHED.includes(this.#status())) return this.#neverStarts(key);
    }
    return JSON.stringify(spec.page);
  }

  /** A task sent before the job ended does not start: it leaves the queued count. */
  #neverStarts(key: string): undefined {
    this.ctx.storage.sql.exec("UPDATE frontier SET state = 'done' WHERE key = ? AND state = 'sent'", key);
    return undefined;
  }

  /** Takes the host's next start slot (its Crawl-delay, else CRAWL_HOST_DELAY_MS, after the last); the wait until it. */
  #reserveStart(spec: JobSpec, host: string): number {
    const delayMs =
      this.ctx.storage.sql.exec<{ delay_ms: number | null }>('SELECT delay_ms FROM hosts WHERE host = ?', host).toArray()[0]?.delay_ms ??
      spec.hostDelayMs;
    const name = `started:${host}`;
    const last = this.#get(name);
    const now = Date.now();
    const at = last === undefined ? now : Math.max(now, Number(last) + delayMs);
    this.#set(name, String(at));
    return at - now;
  }

  async report(report: TaskReport): Promise<void> {
    const spec = this.#spec();
    if (spec === undefined) return;
    const sql = this.ctx.storage.sql;
    const row = sql
      .exec<{ url: string; depth: number; host: string; state: string; attempts: number }>(
        'SELECT url, depth, host, state, attempts FROM frontier WHERE key = ?',
        report.key,
      )
      .toArray()[0];
    if (row === undefined || row.state !== 'sent') return; // a second delivery of a decided task
    sql.exec('UPDATE hosts SET open = MAX(open - 1, 0) WHERE host = ?', row.host);
    const attempts = row.attempts + 1;
    if (report.retryable && attempts < MAX_ATTEMPTS && !FINISHED.includes(this.#status())) {
      sql.exec(
        "UPDATE frontier SET state = 'waiting', attempts = ?, not_before = ? WHERE key = ?",
        attempts,
        Date.now() + retryBackoffMs(attempts),
        report.key,
      );
    } else {
      sql.exec("UPDATE frontier SET state = 'done', attempts = ? WHERE key = ?", attempts, report.key);
      const frontier = this.#crawlFrontier(spec);
      if (frontier !== undefined && report.state === 'fetched' && frontier.alreadyFetched(report.key, report.finalUrl, report.canonical)) {
        this.#record(
          { url: row.url, state: 'skipped', depth: row.depth, final_url: report.finalUrl, status: report.status, data: null },
          0,
        );
      } else {
        this.#record(
          {
            url: row.url,
            state: report.state,
            depth: row.depth,
            final_url: report.finalUrl,
            status: report.status,
            data: report.data,
            ...(report.dataKey === undefined ? {} : { dataKey: report.dataKey }),
            ...(report.metadata === undefined ? {} : { metadata: report.metadata }),
            ...(report.error === undefined ? {} : { error: report.error }),
            ...(report.blocked === undefined ? {} : { blocked: report.blocked }),
          },
          report.dataBytes,
        );
        if (frontier !== undefined && report.state === 'fetched' && !FINISHED.includes(this.#status())) {
          await frontier.follow(report.links ?? [], row.depth);
        }
      }
      // A crawl whose start URL cannot be fetched at all has failed.
      if (frontier !== undefined && report.state === 'failed' && row.depth === 0 && !FINISHED.includes(this.#status())) {
        sql.exec("DELETE FROM frontier WHERE state = 'waiting'");
        await this.#finish(spec, 'failed');
      }
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  #record(record: StoredPageRecord, dataBytes: number): void {
    const spec = this.#spec();
    // The page event carries the record without its content, which is read from the job.
    if (spec !== undefined) this.#emit(spec, 'page', { ...record, data: undefined, dataKey: undefined });
    const json = JSON.stringify(record);
    // The answer's bytes: the record as JSON, with its content in place of an R2 key.
    const bytes = new TextEncoder().encode(json).length + (record.dataKey === undefined ? 0 : dataBytes);
    const counts = this.#recordsByState(); // counted before this record is in
    this.ctx.storage.sql.exec('INSERT INTO records (record, bytes) VALUES (?, ?)', json, bytes);
    counts.set(record.state, (counts.get(record.state) ?? 0) + 1);
  }

  // --- the alarm ---

  override async alarm(): Promise<void> {
    const spec = this.#spec();
    if (spec === undefined) return;
    const expiresAt = spec.createdAt + spec.retentionS * 1000;
    if (Date.now() >= expiresAt) return this.#expire(spec);
    // Deliveries run beside the crawl, never before it: a slow receiver does not hold a page back.
    await Promise.all([this.#deliver(spec), this.#advance(spec, expiresAt)]);
    // Events queued meanwhile (the job ending) count too.
    const nextDelivery = this.ctx.storage.sql.exec<{ at: number | null }>('SELECT MIN(next_at) AS at FROM deliveries').one().at;
    if (nextDelivery !== null) {
      const alarm = await this.ctx.storage.getAlarm();
      if (alarm === null || nextDelivery < alarm) await this.ctx.storage.setAlarm(nextDelivery);
    }
  }

  /** Seeds a crawl once, then starts what may start; a job that has ended waits for its retention. */
  async #advance(spec: JobSpec, expiresAt: number): Promise<void> {
    if (FINISHED.includes(this.#status())) return this.ctx.storage.setAlarm(expiresAt);
    const frontier = this.#crawlFrontier(spec);
    if (frontier !== undefined && this.#get('seeded') === undefined) {
      this.#set('seeded', 'true');
      if (!(await frontier.seed())) return this.#finish(spec, 'failed');
    }
    await this.#pump(spec, expiresAt);
  }

  /** Starts what politeness lets start, and ends the job when nothing is left. */
  async #pump(spec: JobSpec, expiresAt: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const hosts = new Map<string, HostState>();
    const delays = new Map<string, number>();
    for (const row of sql.exec<{ host: string; next_start: number; open: number; delay_ms: number | null }>(
      'SELECT host, next_start, open, delay_ms FROM hosts',
    )) {
      hosts.set(row.host, { nextStart: row.next_start, open: row.open });
      if (row.delay_ms !== null) delays.set(row.host, row.delay_ms);
    }
    // A host's Crawl-delay, else CRAWL_HOST_DELAY_MS.
    const delayOf = (host: string) => delays.get(host) ?? spec.hostDelayMs;
    const frontier = this.#crawlFrontier(spec);
    const candidates = new Map(pumpCandidates(sql, hosts, spec.hostConcurrency, now).map((row) => [row.key, row]));
    const { starts, wakeAt } = pickStarts([...candidates.values()], hosts, now, delayOf, spec.hostConcurrency);
    const tasks: PageTask[] = [];
    for (const key of starts) {
      const row = candidates.get(key)!;
      sql.exec("UPDATE frontier SET state = 'sent' WHERE key = ?", key);
      tasks.push({
        jobId: spec.id,
        key,
        url: row.url,
        depth: row.depth,
        ...(frontier?.follows(row.depth) ? { follow: true } : {}),
        ...(spec.fleet === undefined ? {} : { fleet: spec.fleet }),
      });
    }
    for (const [host, state] of hosts) {
      sql.exec(
        'INSERT INTO hosts (host, next_start, open) VALUES (?, ?, ?) ON CONFLICT(host) DO UPDATE SET next_start = excluded.next_start, open = excluded.open',
        host,
        state.nextStart,
        state.open,
      );
    }
    for (let i = 0; i < tasks.length; i += SEND_BATCH) {
      await this.env.PAGE_TASKS.sendBatch(tasks.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: 'json' })));
    }
    if (tasks.length > 0 && this.#status() === 'queued') this.#set('status', 'running');

    const open = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM frontier WHERE state IN ('waiting', 'sent')").one().n;
    if (open === 0) return this.#finish(spec, 'completed');
    // Woken by a report when waiting only on pages under way; the retention alarm stands by.
    await this.ctx.storage.setAlarm(wakeAt ?? expiresAt);
  }

  async #finish(spec: JobSpec, status: JobStatus): Promise<void> {
    this.#set('status', status);
    if (status === 'completed' || status === 'failed') this.#emit(spec, status, { status, counts: this.#counts() });
    await this.env.JOB_LEDGER.get(this.env.JOB_LEDGER.idFromName(spec.owner)).release(spec.id);
    await this.ctx.storage.setAlarm(spec.createdAt + spec.retentionS * 1000);
  }

  /** Past retention: the job's R2 objects and all its storage go; it then reads as no job. */
  async #expire(spec: JobSpec): Promise<void> {
    if (!FINISHED.includes(this.#status())) {
      await this.env.JOB_LEDGER.get(this.env.JOB_LEDGER.idFromName(spec.owner)).release(spec.id);
    }
    let cursor: string | undefined;
    do {
      const listed = await this.env.JOB_PAGES.list({ prefix: jobDataPrefix(spec.id), ...(cursor === undefined ? {} : { cursor }) });
      if (listed.objects.length > 0) await this.env.JOB_PAGES.delete(listed.objects.map((object) => object.key));
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor !== undefined);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // This instance may answer again (a read of the expired job): empty tables read as no job.
    this.#createSchema();
    this.#frontier = undefined;
    this.#specCache = undefined;
    this.#recordCounts = undefined;
  }
}
