// Worker entry point: the app with the job endpoints, the queue handler of the jobs' page tasks, and
// the Durable Object classes wrangler binds (BROWSER_HUB, BROWSER_DIRECTORY, SITE_JOB, JOB_LEDGER).
import { createApp } from './api/app.js';
import type { Env } from './env.js';
import type { PageTask } from './shared/job-rpc.js';
import { jobRoutes } from './jobs/job-routes.js';
import { handlePageTasks } from './jobs/queue-handler.js';
import { siteTools } from './jobs/site-tools.js';

export { BrowserDirectory, BrowserHub } from './browser/index.js';
export { JobLedger } from './jobs/job-ledger.js';
export { SiteJob } from './jobs/site-job.js';

const app = createApp({ mcpTools: siteTools }); // MCP: map_site, crawl_site, get_job beside fetch_page
app.route('/', jobRoutes()); // POST /api/crawl and /api/batch, GET and DELETE /api/jobs/<id>

export default {
  fetch: app.fetch,
  queue: handlePageTasks,
} satisfies ExportedHandler<Env, PageTask>;
