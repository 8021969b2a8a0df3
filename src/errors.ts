// The API's error model: one ApiError class, a closed union of codes, and the one table that maps a
// code to its HTTP status and stable public message (docs/api.md "Errors"); also the plain form an error
// takes across the RPC seam (class instances do not survive it). Pure: no Hono, no Workers APIs.
// Rendering to a Response happens in api/app.ts; details for operators go in `cause` and logs.
import { withoutUrlSecrets } from './shared/log-privacy.js';

export type ErrorCode =
  | 'malformed_json'
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden_target'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'target_unreachable'
  | 'unsupported_content'
  | 'content_too_large'
  | 'proxy_error'
  | 'browser_unavailable'
  | 'not_configured'
  | 'target_timeout'
  | 'internal_error';

/** Every code, for documents that list them (src/openapi.ts); the check below fails to compile if one is missing. */
export const ERROR_CODES = [
  'malformed_json',
  'invalid_request',
  'unauthorized',
  'forbidden_target',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'target_unreachable',
  'unsupported_content',
  'content_too_large',
  'proxy_error',
  'browser_unavailable',
  'not_configured',
  'target_timeout',
  'internal_error',
] as const satisfies readonly ErrorCode[];
type MissingErrorCode = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
const errorCodesComplete: [MissingErrorCode] extends [never] ? true : MissingErrorCode = true;
void errorCodesComplete;

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429 | 500 | 502 | 503 | 504;

export interface FieldIssue {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: FieldIssue[] };
}

/** Status and default public message per code; exhaustive so a new code fails to compile until mapped. */
export function describeError(code: ErrorCode): { status: ErrorStatus; message: string } {
  switch (code) {
    case 'malformed_json':
      return { status: 400, message: 'The request body must be a JSON object.' };
    case 'invalid_request':
      return { status: 400, message: 'The request has invalid fields.' };
    case 'unauthorized':
      return { status: 401, message: 'A valid bearer token is required.' };
    case 'forbidden_target':
      return { status: 403, message: 'The target address is not allowed.' };
    case 'not_found':
      return { status: 404, message: 'No such endpoint.' };
    case 'method_not_allowed':
      return { status: 405, message: 'Method not allowed on this endpoint.' };
    case 'payload_too_large':
      return { status: 413, message: 'The request body is larger than 64 KiB.' };
    case 'unsupported_media_type':
      return { status: 415, message: 'The request Content-Type must be application/json.' };
    case 'rate_limited':
      return { status: 429, message: 'Too many requests for this token.' };
    case 'target_unreachable':
      return { status: 502, message: 'The target could not be reached.' };
    case 'unsupported_content':
      return { status: 502, message: 'The target is not a page that can be rendered.' };
    case 'content_too_large':
      return { status: 502, message: 'The rendered content is larger than the allowed maximum.' };
    case 'proxy_error':
      return { status: 502, message: 'The upstream proxy failed.' };
    case 'browser_unavailable':
      return { status: 503, message: 'No browser is available right now; retry later.' };
    case 'not_configured':
      return { status: 503, message: 'The service has no API tokens configured.' };
    case 'target_timeout':
      return { status: 504, message: 'The target did not answer in time.' };
    case 'internal_error':
      return { status: 500, message: 'Internal error.' };
  }
}

export interface ApiErrorOptions {
  cause?: unknown;
  details?: FieldIssue[];
  /** Extra response headers the code requires (Allow, Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly details?: FieldIssue[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: ApiErrorOptions = {}) {
    const described = describeError(code);
    super(message ?? described.message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = described.status;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details && this.details.length > 0) error.details = this.details;
    return { error };
  }
}

/** `error` as an ApiError: itself, or internal_error with it as the cause (for the operator's log). */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError('internal_error', undefined, { cause: error });
}

/**
 * A one-line description of an error's cause, for logs only; undefined when there is none. A URL it
 * quotes (puppeteer's "net::ERR_… at <url>") loses its query, fragment and credentials.
 */
export function causeText(error: ApiError): string | undefined {
  if (error.cause === undefined) return undefined;
  return withoutUrlSecrets(error.cause instanceof Error ? error.cause.message : String(error.cause));
}

/** A malformed var or secret; the app answers 500 and logs the reason (never the secret's value). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function contentTooLarge(maxContentBytes: number): ApiError {
  return new ApiError('content_too_large', `The rendered content is larger than ${maxContentBytes} bytes.`);
}

/** An ApiError as plain data, for the RPC seam between the Worker and the browser's Durable Object. */
export interface WireError {
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
  /** The fields at fault, for an invalid_request only the browser could judge (a selector Chromium refuses). */
  details?: FieldIssue[];
  /** For the operator's log only, never the response. */
  cause?: string;
}

export function toWireError(error: unknown): WireError {
  const apiError = asApiError(error);
  return {
    code: apiError.code,
    message: apiError.message,
    headers: apiError.headers,
    ...(apiError.details === undefined ? {} : { details: apiError.details }),
    cause: causeText(apiError),
  };
}

export function fromWireError(wire: WireError): ApiError {
  return new ApiError(wire.code, wire.message, { headers: wire.headers, details: wire.details, cause: wire.cause });
}
