// Politeness per job and host (docs/api.md "Sites"): one page starts at most every `delayMs` (the
// host's Crawl-delay, else CRAWL_HOST_DELAY_MS) and at most `concurrency` are open at once. Pure:
// the job's Durable Object keeps the hosts' state and asks what may start now.

export interface HostState {
  /** Epoch ms before which no page of the host starts. */
  nextStart: number;
  /** Pages of the host under way. */
  open: number;
}

export interface Waiting {
  key: string;
  host: string;
  /** Epoch ms before which this URL does not start (a retry's backoff). */
  notBefore: number;
}

/**
 * The waiting URLs that start now, in their order, and the hosts' state after; also when the next
 * one could start (undefined when none waits on time alone, only on a page to finish).
 */
export function pickStarts(
  waiting: readonly Waiting[],
  hosts: Map<string, HostState>,
  now: number,
  delayMs: (host: string) => number,
  concurrency: number,
): { starts: string[]; wakeAt?: number } {
  const starts: string[] = [];
  let wakeAt: number | undefined;
  const later = (at: number) => {
    wakeAt = wakeAt === undefined ? at : Math.min(wakeAt, at);
  };
  for (const url of waiting) {
    const host = hosts.get(url.host) ?? { nextStart: 0, open: 0 };
    hosts.set(url.host, host);
    if (host.open >= concurrency) continue; // woken when one of them reports
    const at = Math.max(url.notBefore, host.nextStart);
    if (at > now) {
      later(at);
      continue;
    }
    starts.push(url.key);
    host.open++;
    host.nextStart = now + delayMs(url.host);
  }
  return wakeAt === undefined ? { starts } : { starts, wakeAt };
}

/** The wait before a retry: 2 s, then 8 s (attempt 1, 2). */
export function retryBackoffMs(attempt: number): number {
  return 2000 * 4 ** (attempt - 1);
}
