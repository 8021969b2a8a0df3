// Translating the browser's navigation failures into API errors, where they are caught: Chrome
// reports them as "net::ERR_*" in page.goto()'s rejection. Proxy failures, timeouts and plain
// unreachability get different codes; the public message names the net error, never the proxy's
// credentials.
import { ApiError } from '../../errors.js';

const PROXY_ERRORS = new Set([
  'ERR_PROXY_CONNECTION_FAILED',
  'ERR_TUNNEL_CONNECTION_FAILED',
  'ERR_PROXY_AUTH_UNSUPPORTED',
  'ERR_PROXY_AUTH_REQUESTED',
  'ERR_PROXY_CERTIFICATE_INVALID',
  'ERR_NO_SUPPORTED_PROXIES',
  'ERR_PROXY_HTTP_1_1_REQUIRED',
  'ERR_MANDATORY_PROXY_CONFIGURATION_FAILED',
  'ERR_SOCKS_CONNECTION_FAILED',
  'ERR_SOCKS_CONNECTION_HOST_UNREACHABLE',
  'ERR_INVALID_AUTH_CREDENTIALS',
]);

// Through a proxy, the connection these describe is the one to the proxy.
const PROXIED_CONNECTION_ERRORS = new Set([
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_RESET',
  'ERR_CONNECTION_CLOSED',
  'ERR_CONNECTION_FAILED',
  'ERR_EMPTY_RESPONSE',
]);

const TIMEOUT_ERRORS = new Set(['ERR_TIMED_OUT', 'ERR_CONNECTION_TIMED_OUT']);

/** The `ERR_*` name in a Chrome network error message, if any. */
export function netErrorName(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  return /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1];
}

/** The API error for a failed navigation; `proxyName` is set when the request went through an upstream proxy. */
export function navigationError(error: unknown, proxyName?: string): ApiError {
  const name = netErrorName(error);
  if (name === undefined) return new ApiError('internal_error', undefined, { cause: error });
  if (proxyName !== undefined && (PROXY_ERRORS.has(name) || PROXIED_CONNECTION_ERRORS.has(name) || name.startsWith('ERR_PROXY_'))) {
    return new ApiError('proxy_error', `The upstream proxy "${proxyName}" failed (net::${name}).`, { cause: error });
  }
  if (TIMEOUT_ERRORS.has(name)) {
    return new ApiError('target_timeout', `The target did not answer in time (net::${name}).`, { cause: error });
  }
  return new ApiError('target_unreachable', `The target could not be reached (net::${name}).`, { cause: error });
}
