// Saved web pages served on 127.0.0.1 for the benchmarks (markdown-ab.ts, main-content/run.ts), and
// the Server-Timing phases of an answer. Pages are served with a same-origin-only CSP: offline,
// their third-party scripts would stall on DNS; inline scripts, eval, data: and blob: still work.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const SAME_ORIGIN_ONLY = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:";

export interface SavedPages {
  /** Each page's URL, by the name it was given. */
  urls: Map<string, string>;
  close(): Promise<void>;
}

/** Serves `read(name)` at `/<name>` for each of `names` (404 for anything else). */
export async function serveSavedPages(names: string[], read: (name: string) => Buffer): Promise<SavedPages> {
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    if (!names.includes(name)) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': SAME_ORIGIN_ONLY });
    res.end(read(name));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urls: new Map(names.map((name) => [name, `http://127.0.0.1:${port}/${encodeURIComponent(name)}`])),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A phase's duration from a Server-Timing header, in ms (NaN when absent). */
export function serverTimingPhase(header: string | null, name: string): number {
  return Number(new RegExp(`(?:^|, )${name};dur=([\\d.]+)`).exec(header ?? '')?.[1] ?? NaN);
}
