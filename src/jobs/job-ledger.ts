// One Durable Object per token (named by its fingerprint): the jobs it runs at once, so that
// MAX_JOBS_PER_TOKEN holds across every Worker instance (docs/api.md "Sites"). A job takes its place
// before it starts and gives it back when it ends; a place whose job never said so (its storage
// expired) lapses at the job's retention.
import { DurableObject } from 'cloudflare:workers';
import type { JobLedgerRpc } from '../shared/job-rpc.js';

export class JobLedger extends DurableObject<object> implements JobLedgerRpc {
  constructor(ctx: DurableObjectState, env: object) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS running (job_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)');
  }

  async reserve(jobId: string, max: number, expiresAt: number): Promise<boolean> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM running WHERE expires_at <= ?', Date.now());
    const running = sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM running').one().n;
    if (running >= max) return false;
    sql.exec('INSERT OR REPLACE INTO running (job_id, expires_at) VALUES (?, ?)', jobId, expiresAt);
    return true;
  }

  async release(jobId: string): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM running WHERE job_id = ?', jobId);
  }
}
