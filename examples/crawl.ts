// Crawls a site with Page Fetch and writes one markdown file per page: starts POST /api/crawl, polls
// GET /api/jobs/<id> until the job has ended, reading every page through next_cursor, and names each
// file after its URL's path. PAGE_FETCH_URL (default http://127.0.0.1:8787) is the service,
// PAGE_FETCH_TOKEN (default local-dev-token) the bearer token.
// Run: npx tsx examples/crawl.ts URL [OUT_DIR] [LIMIT]  (OUT_DIR defaults to ./crawl-out, LIMIT to 20)

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface PageRecord {
  url: string;
  state: 'fetched' | 'failed' | 'blocked' | 'skipped' | 'disallowed';
  status: number | null;
  data: string | null;
  error?: { code: string; message: string };
}

interface Job {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';
  counts: Record<string, number>;
  pages: PageRecord[];
  next_cursor: string | null;
}

const base = process.env.PAGE_FETCH_URL ?? 'http://127.0.0.1:8787';
const token = process.env.PAGE_FETCH_TOKEN ?? 'local-dev-token';
const [start, outDir = 'crawl-out', limit = '20'] = process.argv.slice(2);
if (start === undefined) {
  console.error('usage: tsx examples/crawl.ts URL [OUT_DIR] [LIMIT]');
  process.exit(2);
}

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
  const json = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok) {
    console.error(`${response.status} ${json.error?.code ?? 'error'}: ${json.error?.message ?? ''}`);
    process.exit(1);
  }
  return json;
}

/**
 * A file name for a page: its host and path, each character that is not a letter, digit, dot or dash
 * becoming "_", so no name climbs out of OUT_DIR or holds a separator; the query, when there is one,
 * keeps two pages apart.
 */
export function fileNameOf(pageUrl: string): string {
  const url = new URL(pageUrl);
  const path = url.pathname.replace(/\/$/, '/index');
  const name = `${url.host}${path}${url.search}`
    .replace(/[^A-Za-z0-9.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 200);
  return `${name}.md`;
}

const { id } = await api<{ id: string }>('/api/crawl', {
  method: 'POST',
  body: JSON.stringify({ url: start, limit: Number(limit), page: { output_format: 'markdown', only_main_content: true } }),
});
console.error(`job ${id}`);

// Records come in order of decision; the cursor moves on while the job runs, so nothing is read twice.
await mkdir(outDir, { recursive: true });
const written = new Set<string>();
let cursor: string | null = '';
let job: Job;
do {
  job = await api<Job>(`/api/jobs/${id}${cursor === '' ? '' : `?cursor=${encodeURIComponent(cursor)}`}`);
  for (const page of job.pages) {
    if (page.state !== 'fetched' || page.data === null) {
      console.error(`${page.state}: ${page.url}${page.error ? ` (${page.error.code})` : ''}`);
      continue;
    }
    let name = fileNameOf(page.url);
    for (let n = 2; written.has(name); n++) name = fileNameOf(page.url).replace(/\.md$/, `-${n}.md`);
    written.add(name);
    await writeFile(join(outDir, name), `<!-- ${page.url} -->\n\n${page.data}`);
    console.log(join(outDir, name));
  }
  cursor = job.next_cursor;
  // Nothing new yet: wait before asking again.
  if (cursor !== null && job.pages.length === 0) await new Promise((resolve) => setTimeout(resolve, 1000));
} while (cursor !== null);
console.error(`${job.status}: ${JSON.stringify(job.counts)}`);
