// Bearer-token middleware for /api/fetch. Auth model: a static list of API tokens from the
// API_TOKENS secret; none configured means the service refuses everything (fail closed, 503).
// Runs before the body is read. Token parsing and comparison live in token.ts.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { ApiError } from '../errors.js';
import { parseBearer, tokenFingerprint, tokenMatches } from './token.js';

export function bearerAuth(): MiddlewareHandler<AppEnv> {
  return async function bearerAuth(c, next) {
    const { apiTokens } = c.get('config');
    if (apiTokens.length === 0) throw new ApiError('not_configured');
    const presented = parseBearer(c.req.header('Authorization'));
    if (presented === undefined) {
      throw new ApiError('unauthorized', 'A bearer token is required.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="page-fetch"' },
      });
    }
    if (!(await tokenMatches(presented, apiTokens))) {
      throw new ApiError('unauthorized', 'The bearer token is not valid.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="page-fetch", error="invalid_token"' },
      });
    }
    c.set('tokenFingerprint', await tokenFingerprint(presented));
    await next();
  };
}
