// The queue handler's failure path (queue-handler.ts): a task whose job cannot be reached is retried
// with backoff, and the log line it writes holds no page URL's query or credentials.
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
});
