// The waiting URLs a job's pump weighs (site-job.ts): per host with a free place, its first waiting
// URLs that are due, no more than its free places, and the soonest of its held retries. A pump then
// reads a few rows per host, not the whole frontier (thousands of rows in a large crawl, each pump).
// pickStarts (host-pacing.ts) decides among them as it would among every waiting URL: a host starts
// at most its free places, and a held retry only tells when to wake.
import type { HostState, Waiting } from './host-pacing.js';

export interface Candidate extends Waiting {
  url: string;
  depth: number;
}

/** The frontier's index that makes this cheap (site-job.ts creates it with the schema). */
export const WAITING_BY_HOST_INDEX = 'CREATE INDEX IF NOT EXISTS frontier_waiting_host ON frontier (state, host, position)';

export function pumpCandidates(sql: SqlStorage, hosts: ReadonlyMap<string, HostState>, concurrency: number, now: number): Candidate[] {
  const held: Candidate[] = [];
  const due: (Candidate & { position: number })[] = [];
  for (const { host } of sql.exec<{ host: string }>("SELECT DISTINCT host FROM frontier WHERE state = 'waiting'")) {
    const free = concurrency - (hosts.get(host)?.open ?? 0);
    if (free <= 0) continue; // waits on a report, which wakes the pump
    for (const row of sql.exec<{ key: string; url: string; depth: number; not_before: number; position: number }>(
      "SELECT key, url, depth, not_before, position FROM frontier WHERE state = 'waiting' AND host = ? AND not_before <= ? ORDER BY position LIMIT ?",
      host,
      now,
      free,
    )) {
      due.push({ key: row.key, url: row.url, depth: row.depth, host, notBefore: row.not_before, position: row.position });
    }
    const soonest = sql
      .exec<{ at: number | null }>(
        "SELECT MIN(not_before) AS at FROM frontier WHERE state = 'waiting' AND host = ? AND not_before > ?",
        host,
        now,
      )
      .one().at;
    // Never started (it is not due): it only sets when the pump wakes.
    if (soonest !== null) held.push({ key: `\0held ${host}`, url: '', depth: 0, host, notBefore: soonest });
  }
  due.sort((a, b) => a.position - b.position);
  return [...held, ...due];
}
