// One page of a job, run by the queue handler: the same fetch as POST /api/fetch (api/fetch-page.ts)
// with the job's `page` fields, its content kept where page-data.ts says, and what it came to
// reported to the job. A page's failure is its record's error, never the task's: only a task that
// cannot report is retried by the queue (and, past its retries, recorded failed from the
// dead-letter queue).
import { asApiError } from '../errors.js';
import { readConfig } from '../api/config.js';
import { fetchPageIn, type FetchContext } from '../api/fetch-page.js';
import { parseFetchRequest } from '../api/fetch-request.js';
import type { StoredRender } from '../api/cache/render-store.js';
import type { OutputFormat } from '../api/fetch-request.js';
import { markdownLinks } from '../sites/markdown-links.js';
import { pageLinks } from '../sites/page-links.js';
import { utf8Length } from '../shared/utf8.js';
import type { JsonObject, JsonValue, PageTask, TaskReport } from '../shared/job-rpc.js';
import { INLINE_DATA_BYTES, pageDataKey } from './page-data.js';
import { throwIfTaskFault, type TaskFaultEnv } from './task-fault.js';

/** Answers worth another try (docs/api.md "Sites"): no browser to be had, or the target's time ran out. */
const RETRYABLE = new Set(['browser_unavailable', 'target_timeout']);

/** What a page task reads of the Worker's env: the fetch's bindings, the R2 bucket of large pages, the config vars. */
export type TaskEnv = FetchContext['env'] & { JOB_PAGES: R2Bucket } & Parameters<typeof readConfig>[0] & TaskFaultEnv;

/** Fetches one page of a job and says what it came to. */
export async function runPageTask(env: TaskEnv, ctx: ExecutionContext, task: PageTask, page: JsonObject): Promise<TaskReport> {
  throwIfTaskFault(env, task.url);
  const requestId = crypto.randomUUID();
  const log = {};
  try {
    const config = readConfig(env);
    const fetchContext: FetchContext = { env, config, requestId, log, waitUntil: (promise) => ctx.waitUntil(promise), jobPage: true };
    // A page whose links are followed is read with its metadata too: its canonical URL dedups.
    const request = parseFetchRequest({ ...page, url: task.url }, config);
    const fetched = task.follow ? { ...request, includeMetadata: true } : request;
    const { content, page: rendered, blocked } = await fetchPageIn(fetchContext, fetched);
    const dataBytes = utf8Length(content);
    let data: string | null = content;
    let dataKey: string | undefined;
    if (dataBytes > INLINE_DATA_BYTES) {
      dataKey = pageDataKey(task.jobId);
      await env.JOB_PAGES.put(dataKey, content, { httpMetadata: { contentType: 'text/plain; charset=utf-8' } });
      data = null;
    }
    return {
      key: task.key,
      state: blocked === undefined ? 'fetched' : 'blocked',
      finalUrl: rendered.finalUrl,
      status: rendered.status,
      data,
      ...(dataKey === undefined ? {} : { dataKey }),
      dataBytes,
      ...(request.includeMetadata ? { metadata: (rendered.metadata ?? null) as JsonValue } : {}),
      ...(blocked === undefined ? {} : { blocked }),
      // A wall's links are the wall's, not the site's: a crawl does not go on from it.
      ...(task.follow && blocked === undefined ? followed(content, rendered, request.outputFormat) : {}),
    };
  } catch (error) {
    const apiError = asApiError(error);
    return { ...failedReport(task, apiError.code, apiError.message), retryable: RETRYABLE.has(apiError.code) };
  } finally {
    console.log(JSON.stringify({ requestId, event: 'job_page', job: task.jobId, depth: task.depth, ...log, timer: undefined }));
  }
}

/** The links and canonical URL of a page a crawl goes on from. */
function followed(content: string, rendered: StoredRender, format: OutputFormat): Pick<TaskReport, 'links' | 'canonical'> {
  const canonical = rendered.metadata?.canonical_url ?? undefined;
  if (rendered.documentKind !== 'html') return canonical === undefined ? {} : { canonical };
  const links = format === 'html' ? pageLinks(content, rendered.finalUrl).links.map((link) => link.url) : markdownLinks(content);
  return canonical === undefined ? { links } : { links, canonical };
}

function failedReport(task: PageTask, code: string, message: string): TaskReport {
  return { key: task.key, state: 'failed', finalUrl: null, status: null, data: null, dataBytes: 0, error: { code, message } };
}

/** What a task that kept failing is recorded as, from the dead-letter queue. */
export function lostTaskReport(task: PageTask): TaskReport {
  return failedReport(task, 'internal_error', 'The page could not be fetched.');
}
