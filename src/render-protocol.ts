// What crosses the RPC boundary between the Worker and the BrowserHub Durable Object: the render
// call, and its outcome as plain data (class instances such as ApiError do not survive RPC).
// Pure: no Workers runtime imports, so the app and its unit tests can use it.
import { ApiError, asApiError, causeText, type ErrorCode } from './errors.js';
import type { BrowserLocation } from './locations.js';
import type { LoadOptions, RenderedPage } from './page-load.js';
import type { ProxyRoute } from './page-setup.js';
import type { Phase } from './timings.js';

export interface RenderCall {
  location?: BrowserLocation;
  load: LoadOptions;
  proxy?: ProxyRoute;
  blockResources: boolean;
  /** Close the browser after this long without requests, in ms. */
  idleCloseMs: number;
}

export interface WireError {
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  /** For the operator's log only, never the response. */
  cause?: string;
}

export type RenderOutcome =
  | { ok: true; page: RenderedPage; timings: Partial<Record<Phase, number>> }
  | { ok: false; error: WireError; timings: Partial<Record<Phase, number>> };

/** The hub instance name for a launch location. */
export function hubName(location: BrowserLocation | undefined): string {
  return `browser-hub:${location ?? 'any'}`;
}

export function toWireError(error: unknown): WireError {
  const apiError = asApiError(error);
  return { code: apiError.code, message: apiError.message, headers: apiError.headers, cause: causeText(apiError) };
}

export function fromWireError(wire: WireError): ApiError {
  return new ApiError(wire.code, wire.message, { headers: wire.headers, cause: wire.cause });
}
