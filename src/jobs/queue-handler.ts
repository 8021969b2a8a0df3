// The Worker's queue handler (src/index.ts): the page tasks of every job, and the dead-letter queue
// of tasks that kept failing. Messages of a batch run at once; the job's own pacing bounds how many
// of one host are under way.
import { withoutUrlSecrets } from '../shared/log-privacy.js';
import type { JsonObject, PageTask, SiteJobRpc } from '../shared/job-rpc.js';
import { lostTaskReport, runPageTask, type TaskEnv } from './page-task.js';

/** What the queue handler reads of the Worker's env: a page task's, and the jobs' Durable Objects. */
type QueueEnv = TaskEnv & { SITE_JOB: DurableObjectNamespace<SiteJobRpc> };

/** Names the dead-letter queue: its consumer's queue name ends so (wrangler.toml). */
const DEAD_LETTER_SUFFIX = '-dlq';

function jobOf(env: QueueEnv, task: PageTask) {
  return env.SITE_JOB.get(env.SITE_JOB.idFromName(task.jobId));
}

async function runTask(env: QueueEnv, ctx: ExecutionContext, message: Message<PageTask>): Promise<void> {
  const job = jobOf(env, message.body);
  const page = await job.taskStarting(message.body.key);
  if (page !== undefined) await job.report(await runPageTask(env, ctx, message.body, JSON.parse(page) as JsonObject));
}

export async function handlePageTasks(batch: MessageBatch<PageTask>, env: QueueEnv, ctx: ExecutionContext): Promise<void> {
  const deadLetters = batch.queue.endsWith(DEAD_LETTER_SUFFIX);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        if (deadLetters) await jobOf(env, message.body).report(lostTaskReport(message.body));
        else await runTask(env, ctx, message);
        message.ack();
      } catch (error) {
        // An error's text may hold a page's URL: its query and credentials stay out of the log.
        console.error(JSON.stringify({ event: 'page_task_failed', job: message.body.jobId, cause: withoutUrlSecrets(String(error)) }));
        message.retry({ delaySeconds: 2 ** Math.min(message.attempts, 5) });
      }
    }),
  );
}
