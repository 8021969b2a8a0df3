// The queue handler (queue-handler.ts): a task whose job cannot be reached is retried with backoff,
// and the log line it writes holds no page URL's query or credentials; a task the fleet holds back
// goes back to the queue without spending a try.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageTask } from '../../../src/shared/job-rpc.js';
import { handlePageTasks } from '../../../src/jobs/queue-handler.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('handlePageTasks', () => {
  it('retries a task that failed and logs its cause without the URL secrets', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    const failing = {
      taskStarting: async () => {
        throw new Error('fetch https://user:pw@example.com/a?token=SECRET42#x failed');
      },
    };
    const env = { SITE_JOB: { idFromName: () => 'id', get: () => failing } } as unknown as Parameters<typeof handlePageTasks>[1];
    const retry = vi.fn();
    const ack = vi.fn();
    const message = { body: { jobId: 'job-1', key: 'k' } as unknown as PageTask, attempts: 2, retry, ack };
    const batch = { queue: 'page-fetch-pages', messages: [message] } as unknown as MessageBatch<PageTask>;

    await handlePageTasks(batch, env, {} as ExecutionContext);

    expect(ack).not.toHaveBeenCalled();
    expect(retry).toHaveBeenCalledWith({ delaySeconds: 4 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: 'page_task_failed', job: 'job-1' });
    expect(lines[0]).toContain('example.com/a');
    expect(lines[0]).not.toContain('SECRET42');
    expect(lines[0]).not.toContain('pw@');
  });

  it('sends a task the fleet holds back to the queue again, to come back in a second, and neither starts, runs nor retries it', async () => {
    const report = vi.fn();
    const taskStarting = vi.fn(async () => JSON.stringify({ wait_event: 'load' }));
    const job = { taskStarting, report };
    const directory = { jobPageMayCome: vi.fn(async () => false) };
    const named: string[] = [];
    const send = vi.fn(async () => undefined);
    const env = {
      API_TOKENS: 't',
      SITE_JOB: { idFromName: () => 'id', get: () => job },
      BROWSER_DIRECTORY: { idFromName: (name: string) => void named.push(name), get: () => directory },
      PAGE_TASKS: { send },
    } as unknown as Parameters<typeof handlePageTasks>[1];
    const retry = vi.fn();
    const ack = vi.fn();
    const body: PageTask = { jobId: 'job-1', key: 'k', url: 'https://example.com/a', depth: 0, fleet: 'browser-directory:any' };
    const batch = { queue: 'page-fetch-pages', messages: [{ body, attempts: 1, retry, ack }] } as unknown as MessageBatch<PageTask>;

    await handlePageTasks(batch, env, {} as ExecutionContext);

    expect(named).toEqual(['browser-directory:any']);
    expect(directory.jobPageMayCome).toHaveBeenCalledTimes(1);
    // Not started: a page held back takes no start slot of its host's pacing.
    expect(taskStarting).not.toHaveBeenCalled();
    expect(send).toHaveBeenCalledWith(body, { contentType: 'json', delaySeconds: 1 });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(retry).not.toHaveBeenCalled();
    expect(report).not.toHaveBeenCalled();
  });

  it('starts and runs a task the fleet takes, asking the job for it only then', async () => {
    const order: string[] = [];
    const job = {
      taskStarting: vi.fn(async () => {
        order.push('taskStarting');
        return undefined; // the job ended meanwhile: nothing to run
      }),
      report: vi.fn(),
    };
    const directory = {
      jobPageMayCome: vi.fn(async () => {
        order.push('jobPageMayCome');
        return true;
      }),
    };
    const send = vi.fn();
    const env = {
      SITE_JOB: { idFromName: () => 'id', get: () => job },
      BROWSER_DIRECTORY: { idFromName: (name: string) => name, get: () => directory },
      PAGE_TASKS: { send },
    } as unknown as Parameters<typeof handlePageTasks>[1];
    const ack = vi.fn();
    const body: PageTask = { jobId: 'job-1', key: 'k', url: 'https://example.com/a', depth: 0, fleet: 'browser-directory:any' };
    const batch = {
      queue: 'page-fetch-pages',
      messages: [{ body, attempts: 1, retry: vi.fn(), ack }],
    } as unknown as MessageBatch<PageTask>;

    await handlePageTasks(batch, env, {} as ExecutionContext);

    expect(order).toEqual(['jobPageMayCome', 'taskStarting']);
    expect(send).not.toHaveBeenCalled();
    expect(job.report).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
