// The site endpoints in the OpenAPI document (src/api/openapi-sites.ts): each operation's answers and
// error statuses, and its request schema judging sample bodies as the parser that validates them does,
// except for the rules JSON Schema cannot state, which the field descriptions name.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/api/config.js';
import { parseMapRequest } from '../../../src/api/map/map-request.js';
import { openApiDocument } from '../../../src/api/openapi.js';
import { ApiError } from '../../../src/errors.js';
import { parseBatchRequest, parseCrawlRequest } from '../../../src/jobs/job-request.js';

const config = readConfig({ API_TOKENS: 'unit-test-token', WEBHOOK_SECRET: 'unit-test-secret' });
// biome-ignore lint/suspicious/noExplicitAny: the test walks a JSON document whose shape it asserts step by step.
type Json = Record<string, any>;
const doc = openApiDocument(config) as unknown as Json;
// Formats (uri, uuid) are annotations here: the parsers judge URLs themselves.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
for (const [name, schema] of Object.entries(doc.components.schemas as Json)) ajv.addSchema(schema, `#/components/schemas/${name}`);
const schemaOf = (name: string) => ajv.compile({ $ref: `#/components/schemas/${name}` });

function accepts(parse: (body: unknown) => unknown, body: unknown): boolean {
  try {
    parse(body);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return false;
    throw error;
  }
}

const errorStatuses = (responses: Json) =>
  Object.entries(responses)
    .filter(([, response]) => typeof response.$ref === 'string')
    .map(([status, response]) => {
      expect(response.$ref).toBe(`#/components/responses/Error${status}`);
      return Number(status);
    });

describe('the site operations in the OpenAPI document', () => {
  it.each<[string, string, string, number[]]>([
    ['/api/map', 'post', '200', [400, 401, 403, 405, 413, 415, 429, 500, 502, 503, 504]],
    ['/api/crawl', 'post', '202', [400, 401, 403, 405, 413, 415, 429, 500, 503]],
    ['/api/batch', 'post', '202', [400, 401, 405, 413, 415, 429, 500, 503]],
    ['/api/jobs/{id}', 'get', '200', [400, 401, 404, 405, 429, 500, 503]],
    ['/api/jobs/{id}', 'delete', '200', [401, 404, 405, 429, 500, 503]],
  ])('%s %s answers %s and the errors it can answer', (path, method, success, errors) => {
    const operation = doc.paths[path][method];
    expect(operation.security).toBeUndefined();
    expect(Object.keys(operation.responses)).toEqual([success, ...errors.map(String)]);
    expect(errorStatuses(operation.responses)).toEqual(errors);
    expect(operation.responses[success].headers['X-Request-Id'].required).toBe(true);
  });

  it('answers a started job with 202, its id and url, and Location', () => {
    for (const path of ['/api/crawl', '/api/batch']) {
      const accepted = doc.paths[path].post.responses['202'];
      expect(accepted.headers.Location.required).toBe(true);
      expect(accepted.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/JobStarted' });
    }
    const started = schemaOf('JobStarted');
    expect(started({ id: '0b8f5a43-8a2f-4c6b-9a1e-2f0c7e9d1a34', url: '/api/jobs/0b8f5a43-8a2f-4c6b-9a1e-2f0c7e9d1a34' })).toBe(true);
    expect(started({ id: 'x' })).toBe(false);
  });

  it('describes the job answer: the job, its page records and next_cursor', () => {
    const answer = schemaOf('JobAnswer');
    const job = {
      id: '0b8f5a43-8a2f-4c6b-9a1e-2f0c7e9d1a34',
      kind: 'crawl',
      status: 'running',
      created_at: '2026-01-01T00:00:00.000Z',
      counts: { queued: 1, fetched: 1, failed: 1, blocked: 0, skipped: 0, disallowed: 0 },
    };
    const fetched = {
      url: 'https://example.com/',
      state: 'fetched',
      depth: 0,
      final_url: 'https://example.com/',
      status: 200,
      data: '<p>',
    };
    const failed = {
      url: 'https://example.com/x',
      state: 'failed',
      depth: 1,
      final_url: null,
      status: null,
      data: null,
      error: { code: 'target_timeout', message: 'm' },
    };
    expect(answer({ ...job, pages: [fetched, failed], next_cursor: '2' }), JSON.stringify(answer.errors)).toBe(true);
    expect(answer({ ...job, pages: [], next_cursor: null })).toBe(true);
    expect(answer({ ...job, pages: [] })).toBe(false);
    expect(answer({ ...job, status: 'paused', pages: [], next_cursor: null })).toBe(false);
    expect(schemaOf('Job')(job)).toBe(true);
    expect(doc.paths['/api/jobs/{id}'].get.parameters.map((parameter: Json) => parameter.name)).toEqual(['id', 'cursor']);
  });
});

const url = 'https://example.com/';

describe('the site request schemas judge bodies as the server does', () => {
  it.each<[string, unknown, boolean]>([
    ['a bare url', { url }, true],
    ['every field', { url, limit: 5000, include_subdomains: true, sitemap: 'only', search: 'docs' }, true],
    ['null for every optional field', { url, limit: null, include_subdomains: null, sitemap: null, search: null }, true],
    ['no url', { limit: 5 }, false],
    ['a limit over 5000', { url, limit: 5001 }, false],
    ['a limit of 0', { url, limit: 0 }, false],
    ['an unknown sitemap mode', { url, sitemap: 'all' }, false],
    ['an unknown field', { url, depth: 2 }, false],
    ['a search over 1024 characters', { url, search: 'a'.repeat(1025) }, false],
  ])('POST /api/map: %s', (_name, body, accepted) => {
    expect(accepts(parseMapRequest, body)).toBe(accepted);
    expect(schemaOf('MapRequest')(body)).toBe(accepted);
  });

  it.each<[string, unknown, boolean]>([
    ['a bare url', { url }, true],
    [
      'every field',
      {
        url,
        limit: 10,
        max_depth: 100,
        include_paths: ['/docs/**'],
        exclude_paths: ['/docs/old/*'],
        include_subdomains: true,
        sitemap: 'skip',
        ignore_query: true,
        page: { output_format: 'markdown', only_main_content: true },
        webhook: { url: 'https://hooks.example.com/', events: ['page'], metadata: { a: 1 } },
      },
      true,
    ],
    ['null for every optional field', { url, limit: null, max_depth: null, include_paths: null, page: null, webhook: null }, true],
    ['no url', { limit: 10 }, false],
    ['a max_depth over 100', { url, max_depth: 101 }, false],
    ['a fractional limit', { url, limit: 1.5 }, false],
    ['51 globs', { url, include_paths: Array.from({ length: 51 }, (_, index) => `/${index}`) }, false],
    ['a page field of /api/fetch with a bad value', { url, page: { output_format: 'pdf' } }, false],
    ['url inside page', { url, page: { url } }, false],
    ['raw inside page', { url, page: { raw: true } }, false],
    ['an unknown webhook event', { url, webhook: { url, events: ['done'] } }, false],
    ['a webhook without url', { url, webhook: { events: ['page'] } }, false],
    ['an unknown field', { url, depth: 2 }, false],
  ])('POST /api/crawl: %s', (_name, body, accepted) => {
    expect(accepts((json) => parseCrawlRequest(json, config), body)).toBe(accepted);
    expect(schemaOf('CrawlRequest')(body)).toBe(accepted);
  });

  it.each<[string, unknown, boolean]>([
    ['one url', { urls: [url] }, true],
    ['urls and page fields', { urls: [url, 'https://example.org/'], page: { wait_ms: 1000, include_links: true } }, true],
    ['no urls', {}, false],
    ['an empty list', { urls: [] }, false],
    ['a string for urls', { urls: url }, false],
    ['a number among the urls', { urls: [url, 4] }, false],
    ['raw inside page', { urls: [url], page: { raw: true } }, false],
    ['an unknown field', { urls: [url], limit: 3 }, false],
  ])('POST /api/batch: %s', (_name, body, accepted) => {
    expect(accepts((json) => parseBatchRequest(json, config), body)).toBe(accepted);
    expect(schemaOf('BatchRequest')(body)).toBe(accepted);
  });

  it.each<[string, string, unknown, string]>([
    ['a crawl limit over MAX_CRAWL_PAGES', 'CrawlRequest', { url, limit: 10_001 }, 'limit'],
    ['more batch URLs than MAX_BATCH_URLS', 'BatchRequest', { urls: Array.from({ length: 1001 }, (_, index) => `${url}${index}`) }, 'urls'],
    ['a relative start URL', 'CrawlRequest', { url: '/relative' }, 'url'],
  ])('leaves %s to the server and says so in the field description', (_name, schema, body, field) => {
    const parse = schema === 'CrawlRequest' ? parseCrawlRequest : parseBatchRequest;
    expect(accepts((json) => parse(json, config), body)).toBe(false);
    expect(schemaOf(schema)(body)).toBe(true);
    expect(doc.components.schemas[schema].properties[field].description).toContain('checked by the server');
  });
});
