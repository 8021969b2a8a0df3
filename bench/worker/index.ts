// The benchmark's Worker: the service exactly as deployed, plus two baselines (same token):
// POST /__bench/naive (a browser per request, puppeteer's own wait) and POST /__bench/naive-tracked
// (a browser per request, the service's page setup and wait). Started by `npm run bench:e2e` with
// bench/worker/wrangler.toml, which has no rate limiter, so hundreds of benchmark requests are never
// answered 429.
import { createApp } from '../../src/api/app.js';
import { bearerAuth } from '../../src/api/auth.js';
import { naiveRoutes } from './naive-routes.js';
import { naiveTrackedRoutes } from './naive-tracked-route.js';

export { BrowserDirectory, BrowserHub } from '../../src/browser/index.js';

const app = createApp();
app.use('/__bench/*', bearerAuth());
app.route('/__bench', naiveRoutes());
app.route('/__bench', naiveTrackedRoutes());
export default app;
