// One structured JSON log line per request (Workers Logs indexes JSON fields): request id, a token
// fingerprint (never the token), target host (not the URL: query strings carry secrets), the
// options, the outcome with its error code (and for 5xx its cause, any URL in it without its query:
// log-privacy.ts), and phase timings. Handlers add what they know through
// the `log` context variable; this middleware writes the line once the response is ready.
import type { Context, MiddlewareHandler } from 'hono';
import { type ApiError, causeText } from '../errors.js';
import { withoutUrlSecrets } from '../shared/log-privacy.js';
import type { AppEnv, RequestLog } from './app-env.js';

/**
 * Puts an error answer's code in the request's log line, and for 5xx its cause: operators get the
 * cause, the client only the stable public message. Also for MCP tool errors, which are HTTP 200.
 */
export function logError(log: RequestLog | undefined, error: ApiError): void {
  if (log === undefined) return;
  log.errorCode = error.code;
  if (error.status >= 500) log.cause = causeText(error) ?? withoutUrlSecrets(error.message);
}

/** A line of its own for a failure the request survives (a rate limiter or store that failed). */
export function logEvent(c: Context<AppEnv>, event: string, error: unknown): void {
  logRequestEvent(c.get('requestId'), event, error);
}

/** The same line for work that has a request id but no Hono context (a job's page task). */
export function logRequestEvent(requestId: string, event: string, error: unknown): void {
  console.error(JSON.stringify({ requestId, event, cause: withoutUrlSecrets(String(error)) }));
}

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
