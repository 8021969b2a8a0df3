// The Hono environment shared by the app and its middleware: bindings plus the typed values that
// middleware puts on the context.
import type { Config, Env } from './config.js';
import type { RequestLog } from './request-log.js';

export interface AppVariables {
  requestId: string;
  config: Config;
  /** Set by bearerAuth once the token is accepted; safe to log. */
  tokenFingerprint: string;
  /** Fields for this request's log line (request-log.ts). */
  log: RequestLog;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
