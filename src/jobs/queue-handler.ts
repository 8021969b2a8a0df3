// The Worker's queue handler (src/index.ts): the page tasks of every job, and the dead-letter queue
// of tasks that kept failing. Messages of a batch run at once; the job's own pacing bounds how many
// of one host are under way, and the fleet decides whether a page may go to a browser now: one that
// may not waits in the queue, not beside a caller's fetch (docs/fleet.md "Job pages").
import { withoutUrlSecrets } from '../shared/log-privacy.js';
import type { JsonObject, PageTask, SiteJobRpc } from '../shared/job-rpc.js';
import { lostTaskReport, runPageTask, type TaskEnv } from './page-task.js';

/** What the queue handler reads of the Worker's env: a page task's, the jobs' Durable Objects and their queue. */
type QueueEnv = TaskEnv & { SITE_JOB: DurableObjectNamespace<SiteJobRpc>; PAGE_TASKS: Queue<PageTask> };

/** Names the dead-letter queue: its consumer's queue name ends so (wrangler.toml). */
const DEAD_LETTER_SUFFIX = '-dlq';

/**
 * How long a page held back by the fleet waits in the queue before it asks again: the shortest
 * delay a queue takes, so a crawl resumes about as soon as the callers are gone.
 */
const HELD_DELAY_S = 1;

function jobOf(env: QueueEnv, task: PageTask) {
  return env.SITE_JOB.get(env.SITE_JOB.idFromName(task.jobId));
}

/**
 * Whether the fleet takes the page now: the job's directory says, from the single fetches about and
 * the job pages it has. A task of a job started before jobs named their directory just goes.
 */
async function fleetTakes(env: QueueEnv, task: PageTask): Promise<boolean> {
  if (task.fleet === undefined) return true;
  return env.BROWSER_DIRECTORY.get(env.BROWSER_DIRECTORY.idFromName(task.fleet)).jobPageMayCome();
}

/**
 * Runs the task, or hands it back to the queue for later when the fleet does not take it now. The
 * fleet is asked first, so a page held back takes no start slot of its host's pacing.
 */
async function runTask(env: QueueEnv, ctx: ExecutionContext, message: Message<PageTask>): Promise<void> {
  const task = message.body;
  // Sent again rather than retried: a page held back has not failed, and spends none of its tries.
  if (!(await fleetTakes(env, task))) {
    await env.PAGE_TASKS.send(task, { contentType: 'json', delaySeconds: HELD_DELAY_S });
    return;
  }
  const job = jobOf(env, task);
  const page = await job.taskStarting(task.key);
  if (page !== undefined) await job.report(await runPageTask(env, ctx, task, JSON.parse(page) as JsonObject));
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
