// Calls to the job endpoints for the site e2e tests, with the test token unless told otherwise.
import { expect } from 'vitest';
import { TEST_TOKEN } from '../support/worker.js';

export interface JobRecord {
  url: string;
  state: string;
  depth: number;
  final_url: string | null;
  status: number | null;
  data: string | null;
  metadata?: unknown;
  error?: { code: string; message: string };
  blocked?: { vendor: string; kind: string };
}

export interface JobAnswer {
  id: string;
  kind: string;
  status: string;
  created_at: string;
  counts: Record<string, number>;
  pages: JobRecord[];
  next_cursor: string | null;
}

export function jobsClient(origin: () => string) {
  const call = (method: string, path: string, body?: unknown, token: string = TEST_TOKEN) =>
    fetch(`${origin()}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** Starts a job and returns its id, checking the 202 answer's shape. */
  async function start(path: '/api/batch' | '/api/crawl', body: unknown, token?: string): Promise<string> {
    const response = await call('POST', path, body, token);
    expect(response.status, await response.clone().text()).toBe(202);
    const json = (await response.json()) as { id: string; url: string };
    expect(json.url).toBe(`/api/jobs/${json.id}`);
    expect(response.headers.get('Location')).toBe(json.url);
    return json.id;
  }

  async function read(id: string, cursor?: string): Promise<JobAnswer> {
    const response = await call('GET', `/api/jobs/${id}${cursor === undefined ? '' : `?cursor=${cursor}`}`);
    expect(response.status).toBe(200);
    return (await response.json()) as JobAnswer;
  }

  /** Polls until the job has ended, then reads every record through the cursors. */
  async function finished(id: string, timeoutMs = 90_000): Promise<{ job: JobAnswer; records: JobRecord[]; answers: JobAnswer[] }> {
    const deadline = Date.now() + timeoutMs;
    let job = await read(id);
    while (job.status === 'queued' || job.status === 'running') {
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}: ${JSON.stringify(job.counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await read(id);
    }
    const answers = [job];
    while (answers.at(-1)!.next_cursor !== null) answers.push(await read(id, answers.at(-1)!.next_cursor!));
    return { job, records: answers.flatMap((answer) => answer.pages), answers };
  }

  /** Each body is answered 400 invalid_request naming exactly its fields. */
  async function expectFieldErrors(path: string, cases: [unknown, string[]][]): Promise<void> {
    for (const [body, fields] of cases) {
      const response = await call('POST', path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const json = (await response.json()) as { error: { code: string; details: { field: string }[] } };
      expect(json.error.code).toBe('invalid_request');
      expect(json.error.details.map((detail) => detail.field).sort(), JSON.stringify(json.error.details)).toEqual([...fields].sort());
    }
  }

  return { call, start, read, finished, expectFieldErrors };
}
