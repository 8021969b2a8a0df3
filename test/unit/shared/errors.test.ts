import { describe, expect, it } from 'vitest';
import { ApiError, describeError, type ErrorCode } from '../../../src/errors.js';

// docs/api.md "Errors", row by row.
const TABLE: [ErrorCode, number][] = [
  ['malformed_json', 400],
  ['invalid_request', 400],
  ['unauthorized', 401],
  ['forbidden_target', 403],
  ['not_found', 404],
  ['method_not_allowed', 405],
  ['payload_too_large', 413],
  ['unsupported_media_type', 415],
  ['rate_limited', 429],
  ['target_unreachable', 502],
  ['unsupported_content', 502],
  ['content_too_large', 502],
  ['proxy_error', 502],
  ['browser_unavailable', 503],
  ['not_configured', 503],
  ['target_timeout', 504],
  ['internal_error', 500],
];

describe('error table', () => {
  it.each(TABLE)('maps %s to HTTP %i with a public message', (code, status) => {
    const described = describeError(code);
    expect(described.status).toBe(status);
    expect(described.message.length).toBeGreaterThan(0);
  });

  it('renders the documented body shape without details when there are none', () => {
    expect(new ApiError('not_found').toBody()).toEqual({ error: { code: 'not_found', message: 'No such endpoint.' } });
  });

  it('renders details when present and keeps the cause out of the body', () => {
    const error = new ApiError('invalid_request', 'Bad.', {
      details: [{ field: 'url', message: 'is required' }],
      cause: new Error('internal'),
    });
    expect(error.toBody()).toEqual({
      error: { code: 'invalid_request', message: 'Bad.', details: [{ field: 'url', message: 'is required' }] },
    });
    expect(JSON.stringify(error.toBody())).not.toContain('internal');
  });

  it('carries extra headers such as Retry-After', () => {
    expect(new ApiError('rate_limited', undefined, { headers: { 'Retry-After': '10' } }).headers).toEqual({ 'Retry-After': '10' });
  });
});
