// The Hono environment shared by the app and its middleware: bindings plus the typed values that
// middleware puts on the context.
import type { Blocked } from '../blocked/verdict.js';
import type { Env } from '../env.js';
import type { PhaseTimer } from '../shared/timings.js';
import type { Config } from './config.js';

/** Fields of one request's access-log line (access-log.ts); handlers add what they know. */
export interface RequestLog {
  targetHost?: string;
  options?: Record<string, unknown>;
  errorCode?: string;
  /** For 5xx answers only: what went wrong, for the operator. */
  cause?: string;
  /** The page was a bot wall: whose, and what kind (docs/api.md "Blocked pages"). */
  blocked?: Blocked;
  /** The request's phase timer; its durations are written with the line. */
  timer?: PhaseTimer;
}

export interface AppVariables {
  requestId: string;
  config: Config;
  /** Set by bearerAuth once the token is accepted; safe to log. */
  tokenFingerprint: string;
  /** Fields for this request's log line. */
  log: RequestLog;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
