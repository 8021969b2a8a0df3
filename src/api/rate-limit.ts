// Per-token rate limiting with the Workers Rate Limiting binding (RATE_LIMITER, configured in
// wrangler.toml; wrangler dev emulates it). The key is the token's fingerprint, a hash, so the
// token itself never reaches the limiter. Without the binding (unit tests) nothing is limited; if
// the limiter itself fails, requests pass (availability over strictness) and the failure is logged.
import type { MiddlewareHandler } from 'hono';
import { logEvent } from './access-log.js';
import type { AppEnv } from './app-env.js';
import { ApiError } from '../errors.js';

/** Must equal `period` of [[ratelimits]] in wrangler.toml: the binding does not report it. */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    const limiter = c.env.RATE_LIMITER;
    if (limiter !== undefined) {
      let allowed = true;
      try {
        allowed = (await limiter.limit({ key: c.get('tokenFingerprint') })).success;
      } catch (error) {
        logEvent(c, 'rate_limiter_failed', error);
      }
      if (!allowed) {
        throw new ApiError('rate_limited', undefined, { headers: { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) } });
      }
    }
    await next();
  };
}
