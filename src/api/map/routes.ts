// POST /api/map behind the same bearer auth and per-token rate limit as /api/fetch (docs/api.md "Sites").
import { Hono } from 'hono';
import { ApiError } from '../../errors.js';
import type { AppEnv } from '../app-env.js';
import { bearerAuth } from '../auth.js';
import { readJsonBody } from '../json-body.js';
import { rateLimit } from '../rate-limit.js';
import { parseMapRequest } from './map-request.js';
import { mapSite } from './map-site.js';

export function mapRoutes() {
  const routes = new Hono<AppEnv>();
  routes.post('/api/map', bearerAuth(), rateLimit(), async (c) => {
    const request = parseMapRequest(await readJsonBody(c.req.raw));
    Object.assign(c.get('log'), { targetHost: new URL(request.url).hostname });
    const answer = await mapSite(c, request);
    c.header('Cache-Control', 'no-store');
    return c.json(answer);
  });
  routes.all('/api/map', () => {
    throw new ApiError('method_not_allowed', undefined, { headers: { Allow: 'POST' } });
  });
  return routes;
}
