// The Hono environment shared by the app and its middleware: bindings plus the typed values that
// middleware puts on the context.
import type { Config, Env } from './config.js';

export interface AppVariables {
  requestId: string;
  config: Config;
  /** Set by bearerAuth once the token is accepted; safe to log. */
  tokenFingerprint: string;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
