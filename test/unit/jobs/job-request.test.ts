import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/api/config.js';
import { ApiError } from '../../../src/errors.js';
import { parseBatchRequest, parseCrawlRequest } from '../../../src/jobs/job-request.js';

const config = readConfig({ MAX_BATCH_URLS: '3' });

function fieldsOf(body: unknown): string[] {
  try {
    parseBatchRequest(body, config);
  } catch (error) {
    if (error instanceof ApiError) return (error.details ?? []).map((detail) => detail.field).sort();
    throw error;
  }
  return [];
}

describe('parseBatchRequest', () => {
  it('keeps each URL once by its normal form, first spelling first', () => {
    expect(parseBatchRequest({ urls: ['https://E.com/a#x', 'https://e.com/a', 'https://e.com/b'] }, config)).toEqual({
      urls: ['https://E.com/a#x', 'https://e.com/b'],
      page: {},
    });
  });

  it('takes the page fields as /api/fetch does, without url and raw', () => {
    expect(parseBatchRequest({ urls: ['https://e.com/'], page: { output_format: 'markdown' } }, config).page).toEqual({
      output_format: 'markdown',
    });
    expect(fieldsOf({ urls: ['https://e.com/'], page: { url: 'https://e.com/', raw: true, wait_ms: 'x' } })).toEqual([
      'page.raw',
      'page.url',
      'page.wait_ms',
    ]);
  });

  it('names every bad field at once', () => {
    expect(fieldsOf({ urls: 'https://e.com/a-long-path' })).toEqual(['urls']);
    expect(fieldsOf({ urls: [] })).toEqual(['urls']);
    expect(fieldsOf({ urls: ['https://e.com/1', 'https://e.com/2', 'https://e.com/3', 'https://e.com/4'] })).toEqual(['urls']);
    expect(fieldsOf({ urls: ['nope'], page: [], webhook: {} })).toEqual(['page', 'urls[0]', 'webhook.url']);
  });

  it('answers malformed_json for a body that is no object', () => {
    expect(() => parseBatchRequest([], config)).toThrow(expect.objectContaining({ code: 'malformed_json' }));
  });
});

describe('parseCrawlRequest', () => {
  it('applies the defaults', () => {
    expect(parseCrawlRequest({ url: 'https://e.com/', max_depth: null }, readConfig({}))).toEqual({
      url: 'https://e.com/',
      crawl: {
        limit: 100,
        maxDepth: 3,
        includePaths: [],
        excludePaths: [],
        includeSubdomains: false,
        sitemap: 'include',
        ignoreQuery: false,
      },
      page: {},
    });
  });

  it('bounds limit by MAX_CRAWL_PAGES and names every bad field', () => {
    const small = readConfig({ MAX_CRAWL_PAGES: '10' });
    expect(parseCrawlRequest({ url: 'https://e.com/' }, small).crawl.limit).toBe(10);
    let fields: string[] = [];
    try {
      parseCrawlRequest({ url: 'https://e.com/', limit: 11, max_depth: 101, include_paths: '/a', page: { raw: true } }, small);
    } catch (error) {
      fields = ((error as ApiError).details ?? []).map((detail) => detail.field).sort();
    }
    expect(fields).toEqual(['include_paths', 'limit', 'max_depth', 'page.raw']);
  });
});

describe('webhook', () => {
  const urls = ['https://e.com/'];
  const issues = (body: unknown, env: Record<string, string>) => {
    try {
      parseBatchRequest(body, readConfig(env));
    } catch (error) {
      return (error as ApiError).details;
    }
    return [];
  };

  it('needs WEBHOOK_SECRET on the deployment', () => {
    expect(issues({ urls, webhook: { url: 'https://hooks.example.com/' } }, {})).toEqual([
      { field: 'webhook', message: 'needs WEBHOOK_SECRET, which this deployment does not set' },
    ]);
  });

  it('passes the private-network guard', () => {
    const refused = issues({ urls, webhook: { url: 'http://169.254.169.254/hook' } }, { WEBHOOK_SECRET: 's' });
    expect(refused?.map((issue) => issue.field)).toEqual(['webhook.url']);
    expect(issues({ urls, webhook: { url: 'http://127.0.0.1/hook' } }, { WEBHOOK_SECRET: 's', ALLOW_PRIVATE_NETWORK: 'true' })).toEqual([]);
  });

  it('defaults to every event and null metadata', () => {
    expect(
      parseBatchRequest({ urls, webhook: { url: 'https://hooks.example.com/' } }, readConfig({ WEBHOOK_SECRET: 's' })).webhook,
    ).toEqual({
      url: 'https://hooks.example.com/',
      events: ['started', 'page', 'completed', 'failed'],
      metadata: null,
      allowPrivateNetwork: false,
    });
  });
});
