// Closed-loop load generation against a running Worker: `concurrency` clients each send their next
// request when the previous one is answered, until `total` requests are done. Pure timing, no
// assertions: the caller turns the samples into figures.

export interface Sample {
  ms: number;
  status: number;
  /** Page-side time to the wait event, ms since navigation start, when the page reported it. */
  pageMs?: number;
  /** For an answer other than 200: its error code and Server-Timing, to tell where it came from. */
  detail?: string;
}

export interface LoadResult {
  samples: Sample[];
  wallMs: number;
}

export async function runLoad(send: () => Promise<Sample>, concurrency: number, total: number): Promise<LoadResult> {
  const samples: Sample[] = [];
  let started = 0;
  const begin = performance.now();
  const client = async () => {
    while (started < total) {
      started++;
      samples.push(await send());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { samples, wallMs: performance.now() - begin };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** The page's own time to its wait event, read from the timing line the benchmark page writes. */
export function pageOwnTime(content: string, waitEvent: 'load' | 'networkIdle'): number | undefined {
  const match = /bench-timing load=([\d.]+) last-response=([\d.]+)/.exec(content);
  if (!match) return undefined;
  const load = Number(match[1]);
  const lastResponse = Number(match[2]);
  // networkIdle by definition: no open request for 500 ms after the last one ended.
  return waitEvent === 'load' ? load : lastResponse + 500;
}
