// The OpenAPI document (src/openapi.ts): valid OpenAPI 3.1 by a maintained validator, complete
// against the error table, and its request schema judging sample bodies as parseFetchRequest does,
// except for the rules JSON Schema cannot state, which the field descriptions name.
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { readConfig } from '../../../src/api/config.js';
import { ApiError, describeError, ERROR_CODES } from '../../../src/errors.js';
import { openApiDocument } from '../../../src/api/openapi.js';
import { parseFetchRequest } from '../../../src/api/fetch-request.js';

const config = readConfig({ API_TOKENS: 'unit-test-token' });
const doc = openApiDocument(config);
const ajv = new Ajv2020({ strict: true, allErrors: true });

// biome-ignore lint/suspicious/noExplicitAny: the test walks a JSON document whose shape it asserts step by step.
type Json = Record<string, any>;
const fetchOperation = doc.paths['/api/fetch'].post as Json;
const errorResponse = (status: number) => (doc.components.responses as Json)[`Error${status}`] as Json;
const errorCodesOf = (status: number): string[] =>
  errorResponse(status).content['application/json'].schema.properties.error.properties.code.enum;

function parserAccepts(body: unknown): boolean {
  try {
    parseFetchRequest(body, config);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return false;
    throw error;
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document according to @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
    expect(doc.openapi).toBe('3.1.0');
  });

  it('declares HTTP bearer auth for POST /api/fetch and none for /healthz and /openapi.json', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(fetchOperation.security).toBeUndefined();
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('takes the wait_ms maximum from MAX_WAIT_MS', () => {
    const waitMs = (maxWaitMs: number) =>
      (openApiDocument({ maxWaitMs, maxCacheAge: 86400 }).components.schemas.FetchRequest as Json).properties.wait_ms.anyOf[0];
    expect(waitMs(60_000)).toEqual({ type: 'integer', minimum: 0, maximum: 60_000 });
    expect(waitMs(1234).maximum).toBe(1234);
  });

  it('documents the JSON, both raw 200 bodies and the raw screenshot with every fetch response header', () => {
    const ok = fetchOperation.responses['200'];
    expect(Object.keys(ok.content).sort()).toEqual([
      'application/json',
      'image/jpeg',
      'image/png',
      'image/webp',
      'text/html',
      'text/plain',
    ]);
    expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FetchResponse' });
    expect(doc.components.schemas.FetchResponse.required).toEqual(['data', 'status', 'headers']);
    expect(Object.keys(ok.headers)).toEqual([
      'X-Request-Id',
      'X-Final-Url',
      'X-Wait-Result',
      'X-Page-Status',
      'X-Document-Kind',
      'Server-Timing',
      'X-Cache',
      'X-Page-Blocked',
      'X-Pdf-Pages',
      'X-Screenshot-Matches',
      'X-Screenshot-Truncated',
      'Age',
    ]);
    expect(ok.headers['X-Wait-Result'].schema.enum).toEqual(['event', 'timeout']);
    expect(ok.headers['X-Document-Kind'].schema.enum).toEqual(['html', 'json', 'xml', 'text', 'pdf']);
    expect(ok.headers['X-Cache'].schema.enum).toEqual(['HIT', 'MISS', 'BYPASS']);
    // Age only on a HIT, X-Pdf-Pages only on a PDF, X-Page-Blocked only on a bot wall, the screenshot's headers only with one: not on every answer.
    expect(
      Object.entries(ok.headers)
        .filter(([, header]) => !(header as { required?: boolean }).required)
        .map(([name]) => name),
    ).toEqual(['X-Page-Blocked', 'X-Pdf-Pages', 'X-Screenshot-Matches', 'X-Screenshot-Truncated', 'Age']);
  });

  it('documents a bot wall: X-Page-Blocked and the optional `blocked` member name the vendor and the kind', () => {
    const vendors = ['cloudflare', 'akamai', 'perimeterx', 'datadome', 'imperva', 'aws-waf', 'kasada', 'captcha'];
    expect(fetchOperation.responses['200'].headers['X-Page-Blocked'].schema.enum).toEqual(vendors);
    const blocked = (doc.components.schemas.FetchResponse as Json).properties.blocked;
    expect(blocked.properties.vendor.enum).toEqual(vendors);
    expect(blocked.properties.kind.enum).toEqual(['challenge', 'captcha', 'block']);
    expect(blocked.required).toEqual(['vendor', 'kind']);
    expect(blocked.additionalProperties).toBe(false);
  });
});

describe('error responses in the document', () => {
  it('lists each code of the error table once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(ERROR_CODES).toHaveLength(17);
  });

  it.each(ERROR_CODES.map((code) => [code, describeError(code).status] as const))('documents %s under status %i', (code, status) => {
    expect(errorCodesOf(status)).toContain(code);
    expect(errorResponse(status).description).toContain(`\`${code}\``);
    expect(errorResponse(status).content['application/json'].examples[code].value).toEqual({
      error: { code, message: describeError(code).message },
    });
  });

  it('references every error status from POST /api/fetch except 404, which only unknown paths answer', () => {
    const statuses = [...new Set(ERROR_CODES.map((code) => describeError(code).status))].sort((a, b) => a - b);
    expect(statuses).toEqual([400, 401, 403, 404, 405, 413, 415, 429, 500, 502, 503, 504]);
    const documented = Object.keys(fetchOperation.responses).filter((status) => status !== '200');
    expect(documented).toEqual(statuses.filter((status) => status !== 404).map(String));
    for (const status of documented) expect(fetchOperation.responses[status]).toEqual({ $ref: `#/components/responses/Error${status}` });
    expect(errorCodesOf(404)).toEqual(['not_found']);
    expect(errorCodesOf(503)).toEqual(['browser_unavailable', 'not_configured']);
    expect(errorCodesOf(502)).toEqual(['target_unreachable', 'unsupported_content', 'content_too_large', 'proxy_error']);
  });

  it('documents X-Request-Id on every error, WWW-Authenticate on 401, Allow on 405 and Retry-After on 429 and 503', () => {
    const extra: Record<number, string[]> = { 401: ['WWW-Authenticate'], 405: ['Allow'], 429: ['Retry-After'], 503: ['Retry-After'] };
    for (const status of [400, 401, 403, 404, 405, 413, 415, 429, 500, 502, 503, 504]) {
      expect(Object.keys(errorResponse(status).headers)).toEqual(['X-Request-Id', ...(extra[status] ?? [])]);
    }
  });

  it('has an error body schema that every rendered ApiError satisfies, details included', () => {
    const check = ajv.compile(doc.components.schemas.ErrorBody);
    for (const code of ERROR_CODES) expect(check(new ApiError(code).toBody()), code).toBe(true);
    const invalid = new ApiError('invalid_request', undefined, {
      details: [{ field: 'url', message: 'is required and must be a string' }],
    });
    expect(check(invalid.toBody())).toBe(true);
    expect(check({ error: { code: 'no_such_code', message: 'x' } })).toBe(false);
  });
});

describe('the request schema in the document', () => {
  const documented = ajv.compile(doc.components.schemas.FetchRequest);
  const url = 'https://example.com/';

  it.each<[string, unknown, boolean]>([
    ['a bare url', { url }, true],
    [
      'every field set',
      { url, output_format: 'markdown', wait_ms: 60_000, wait_event: 'load', raw: true, proxy_name: 'fast_dc', country: 'de' },
      true,
    ],
    [
      'null for every optional field',
      { url, output_format: null, wait_ms: null, wait_event: null, raw: null, proxy_name: null, country: null },
      true,
    ],
    ['wait_ms 0 (the default)', { url, wait_ms: 0 }, true],
    ['a url of exactly 8192 characters', { url: `${url}${'a'.repeat(8192 - url.length)}` }, true],
    ['no url', { output_format: 'html' }, false],
    ['a null url', { url: null }, false],
    ['a numeric url', { url: 42 }, false],
    ['a url over 8192 characters', { url: `${url}${'a'.repeat(8193 - url.length)}` }, false],
    ['an unknown field', { url, colour: 'red' }, false],
    ['an output_format in the wrong case', { url, output_format: 'HTML' }, false],
    ['a negative wait_ms', { url, wait_ms: -1 }, false],
    ['a fractional wait_ms', { url, wait_ms: 1.5 }, false],
    ['a wait_ms over MAX_WAIT_MS', { url, wait_ms: 60_001 }, false],
    ['a wait_ms given as a string', { url, wait_ms: '5000' }, false],
    ['an unknown wait_event', { url, wait_event: 'idle' }, false],
    ['raw as a string', { url, raw: 'true' }, false],
    ['an empty proxy_name', { url, proxy_name: '' }, false],
    ['a three-letter country', { url, country: 'USA' }, false],
    ['a numeric country', { url, country: 49 }, false],
    ['an array body', [{ url }], false],
    ['a string body', 'https://example.com/', false],
    ['a null body', null, false],
  ])('judges %s as parseFetchRequest does', (_name, body, accepted) => {
    expect(parserAccepts(body)).toBe(accepted);
    expect(documented(body)).toBe(accepted);
  });

  it.each<[string, object, 'url' | 'proxy_name' | 'country']>([
    ['a non-http scheme', { url: 'ftp://example.com/' }, 'url'],
    ['a relative url', { url: '/relative' }, 'url'],
    ['a proxy the deployment does not configure', { url, proxy_name: 'resi_eu' }, 'proxy_name'],
    ['a country Browser Rendering cannot launch in', { url, country: 'XX' }, 'country'],
  ])('leaves %s to the server and says so in the field description', (_name, body, field) => {
    expect(documented(body)).toBe(true);
    expect(parserAccepts(body)).toBe(false);
    expect((doc.components.schemas.FetchRequest as Json).properties[field].description).toContain('checked by the server');
  });
});

describe('GET /openapi.json', () => {
  it('answers the document without a token, with the deployment MAX_WAIT_MS', async () => {
    const response = await createApp().request('/openapi.json', {}, { MAX_WAIT_MS: '1234' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument({ maxWaitMs: 1234, maxCacheAge: 86400 }))));
  });
});
