// One structured JSON log line per request (Workers Logs indexes JSON fields): request id, a token
// fingerprint (never the token), target host (not the URL: query strings carry secrets), the
// options, the outcome with its error code, and phase timings. Handlers add what they know through
// the `log` context variable; this middleware writes the line once the response is ready.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

export function accessLog(): MiddlewareHandler<AppEnv> {
  return async function accessLog(c, next) {
    const started = Date.now();
    c.set('log', {});
    await next();
    const { timer, ...log } = c.get('log');
    const line = {
      requestId: c.get('requestId'),
      token: c.get('tokenFingerprint'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
      ...log,
      timings: timer === undefined ? undefined : Object.fromEntries(timer.durations),
    };
    (c.res.status >= 500 ? console.error : console.log)(JSON.stringify(line));
  };
}
