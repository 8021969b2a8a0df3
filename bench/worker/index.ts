// The benchmark's Worker: the service exactly as deployed, plus the naive baseline at
// POST /__bench/naive (same token). Started by `npm run bench:e2e` with bench/worker/wrangler.toml,
// which has no rate limiter, so hundreds of benchmark requests are never answered 429.
import { createApp } from '../../src/api/app.js';
import { bearerAuth } from '../../src/api/auth.js';
import { naiveRoutes } from './naive-routes.js';

export { BrowserHub } from '../../src/browser/index.js';

const app = createApp();
app.use('/__bench/*', bearerAuth());
app.route('/__bench', naiveRoutes());
export default app;
