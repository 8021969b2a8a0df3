// Property-based tests for the request validator: parseFetchRequest() is total (it returns a
// FetchRequest or throws an ApiError, nothing else), applies the documented defaults to every
// valid body, and reports exactly the failing fields of an invalid one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfig, type Config } from '../../../src/api/config.js';
import { ApiError } from '../../../src/errors.js';
import { BROWSER_LOCATIONS } from '../../../src/shared/locations.js';
import { DEFAULT_WAIT_MS, MAX_URL_LENGTH, OUTPUT_FORMATS, parseFetchRequest, type FetchRequest } from '../../../src/api/fetch-request.js';
import { WAIT_EVENTS } from '../../../src/shared/wait-events.js';

const RUNS = { numRuns: 300, seed: 0x9e3779b9 };
// Property runs are CPU-bound: a roomy timeout keeps them from flaking on a busy machine.
const SUITE = { timeout: 30_000 };

const KNOWN_FIELDS = [
  'url',
  'output_format',
  'wait_ms',
  'wait_event',
  'raw',
  'include_metadata',
  'only_main_content',
  'include_links',
  'include_images',
  'max_age',
  'proxy_name',
  'country',
  'wait_for_selector',
  'scroll',
  'include_selectors',
  'exclude_selectors',
  'consent',
] as const;
// Known too, with generators of their own in test/unit/api/visit-fields.test.ts.
const VISIT_FIELDS = ['headers', 'cookies', 'device', 'viewport'] as const;
type Field = (typeof KNOWN_FIELDS)[number];
type Body = Partial<Record<Field, unknown>>;

const DEFAULT_CONFIG = readConfig({});
// A deployment with two upstream proxies: a datacenter one that takes a country, and a residential one.
const PROXY_CONFIG = readConfig({
  PROXIES: JSON.stringify({
    dc: { kind: 'datacenter', server: 'http://dc.example:8080', username: 'u', country_username: '{username}-cc-{country}' },
    res: { kind: 'residential', server: 'http://res.example:8080', username: 'u' },
  }),
});

type Outcome = { ok: true; value: FetchRequest } | { ok: false; error: ApiError };

/** Runs the validator; anything thrown that is not an ApiError escapes and fails the property. */
function outcome(json: unknown, config: Config): Outcome {
  try {
    return { ok: true, value: parseFetchRequest(json, config) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    throw error;
  }
}

function rejection(json: unknown, config: Config): ApiError {
  const result = outcome(json, config);
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** The body fields named by an error's details (a list's item, `include_selectors[2]`, names its list). */
const detailFields = (error: ApiError): Set<string> => new Set((error.details ?? []).map((d) => d.field.replace(/\[\d+\]$/, '')));

/** Sets an own data property, also for "__proto__" (as JSON.parse does). */
function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** An object with exactly the present fields of `fields` (undefined means the key is absent). */
function bodyOf(fields: Body): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) withKey(body, key, value);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Generators of valid field values. `undefined` stands for an absent key.

const absentOrNull = fc.constantFrom(undefined, null);

const longHttpUrl = fc
  .integer({ min: 0, max: MAX_URL_LENGTH - 'https://example.com/'.length })
  .map((n) => `https://example.com/${'a'.repeat(n)}`);

const validUrl = fc.oneof(
  fc.webUrl({
    validSchemes: ['http', 'https'],
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
  }),
  fc.constantFrom('http://example.com', 'HTTPS://EXAMPLE.COM/', 'http://127.0.0.1:8080/x', 'https://[::1]/', 'http://a.b'),
  longHttpUrl,
);

const validOutputFormat = fc.oneof(fc.constantFrom(...OUTPUT_FORMATS), absentOrNull);
const validWaitEvent = fc.oneof(fc.constantFrom(...WAIT_EVENTS), absentOrNull);
const validRaw = fc.oneof(fc.boolean(), absentOrNull);
const validWaitMs = (maxWaitMs: number) =>
  fc.oneof(fc.integer({ min: 0, max: maxWaitMs }), fc.constantFrom(0, -0, maxWaitMs), absentOrNull);
// Both configs of this file keep the default MAX_CACHE_AGE.
const validMaxAge = fc.oneof(
  fc.integer({ min: 0, max: DEFAULT_CONFIG.maxCacheAge }),
  fc.constantFrom(0, DEFAULT_CONFIG.maxCacheAge),
  absentOrNull,
);

const validSelector = fc.oneof(
  fc.constantFrom('#main', 'article p:first-of-type', ':has(> img)', '[data-ready="1"]', 'x-card::part(body)'),
  absentOrNull,
);

const validSelectorList = fc.oneof(
  fc.array(fc.constantFrom('article', 'p', '.x > a', ':is(h1, h2)', '[data-part]'), { maxLength: 20 }),
  absentOrNull,
);
const invalidSelectorList = fc.oneof(
  fc.constantFrom('p', 7, true, { 0: 'p' }),
  fc.constantFrom(
    [''],
    ['a;b'],
    ['p', 1],
    Array.from({ length: 21 }, () => 'p'),
  ),
);

const anyCase = (code: string) =>
  fc.tuple(fc.boolean(), fc.boolean()).map(([a, b]) => (a ? code[0]!.toLowerCase() : code[0]!) + (b ? code[1]!.toLowerCase() : code[1]!));
const browserCountry = fc.constantFrom(...BROWSER_LOCATIONS).chain(anyCase);
const twoLetters = fc.stringMatching(/^[A-Za-z]{2}$/);

/** Valid values per field for the default config (egress through the browser, country a launch location). */
const validFor = (maxWaitMs: number): Record<Field, fc.Arbitrary<unknown>> => ({
  url: validUrl,
  output_format: validOutputFormat,
  wait_ms: validWaitMs(maxWaitMs),
  wait_event: validWaitEvent,
  raw: validRaw,
  include_metadata: validRaw,
  only_main_content: validRaw,
  include_links: validRaw,
  include_images: validRaw,
  max_age: validMaxAge,
  proxy_name: fc.constantFrom('fast_dc', null, undefined),
  country: fc.oneof(browserCountry, absentOrNull),
  wait_for_selector: validSelector,
  scroll: validRaw,
  include_selectors: validSelectorList,
  exclude_selectors: validSelectorList,
  consent: fc.oneof(fc.constantFrom('reject', 'keep'), absentOrNull),
});

/** A valid body for the default config. */
const validDefaultBody = (maxWaitMs: number) => fc.record(validFor(maxWaitMs), { requiredKeys: ['url'] });

/** A valid body for PROXY_CONFIG: any of the proxies, with a country each of them accepts. */
const validProxyBody = fc.constantFrom('fast_dc', 'dc', 'res', null, undefined).chain((proxy) =>
  fc.record(
    {
      url: validUrl,
      output_format: validOutputFormat,
      wait_ms: validWaitMs(PROXY_CONFIG.maxWaitMs),
      wait_event: validWaitEvent,
      raw: validRaw,
      include_metadata: validRaw,
      only_main_content: validRaw,
      include_links: validRaw,
      include_images: validRaw,
      max_age: validMaxAge,
      proxy_name: fc.constant(proxy),
      country: fc.oneof(proxy === 'dc' || proxy === 'res' ? twoLetters : browserCountry, absentOrNull),
      wait_for_selector: validSelector,
      scroll: validRaw,
      include_selectors: validSelectorList,
      exclude_selectors: validSelectorList,
      consent: fc.oneof(fc.constantFrom('reject', 'keep'), absentOrNull),
    },
    { requiredKeys: ['url', 'proxy_name'] },
  ),
);

/** The FetchRequest docs/api.md "Request" prescribes for a valid body, computed independently. */
function expectedRequest(body: Body): FetchRequest {
  const proxyName = (body.proxy_name as string | null | undefined) ?? 'fast_dc';
  const country = (body.country as string | null | undefined) ?? undefined;
  const waitMs = body.wait_ms as number | null | undefined;
  let egress: FetchRequest['egress'];
  if (proxyName === 'fast_dc')
    egress = country === undefined ? { kind: 'direct' } : { kind: 'direct', location: country.toUpperCase() as never };
  else if (proxyName === 'dc') {
    const username = country === undefined ? 'u' : `u-cc-${country.toLowerCase()}`;
    egress = {
      kind: 'proxy',
      route: { name: 'dc', server: 'http://dc.example:8080', username, password: undefined },
      country: country?.toUpperCase(),
    };
  } else
    egress = {
      kind: 'proxy',
      route: { name: 'res', server: 'http://res.example:8080', username: 'u', password: undefined },
      country: undefined,
    };
  return {
    url: body.url as string,
    outputFormat: (body.output_format as FetchRequest['outputFormat'] | null | undefined) ?? 'html',
    waitMs: waitMs === undefined || waitMs === null || waitMs === 0 ? DEFAULT_WAIT_MS : waitMs,
    waitEvent: (body.wait_event as FetchRequest['waitEvent'] | null | undefined) ?? 'networkIdle',
    ...(typeof body.wait_for_selector === 'string' ? { waitForSelector: body.wait_for_selector } : {}),
    scroll: (body.scroll as boolean | null | undefined) ?? false,
    consent: (body.consent as FetchRequest['consent'] | null | undefined) ?? 'reject',
    ...(Array.isArray(body.include_selectors) && body.include_selectors.length > 0 ? { includeSelectors: body.include_selectors } : {}),
    ...(Array.isArray(body.exclude_selectors) && body.exclude_selectors.length > 0 ? { excludeSelectors: body.exclude_selectors } : {}),
    raw: (body.raw as boolean | null | undefined) ?? false,
    includeMetadata: (body.include_metadata as boolean | null | undefined) ?? false,
    onlyMainContent: (body.only_main_content as boolean | null | undefined) ?? false,
    includeLinks: (body.include_links as boolean | null | undefined) ?? false,
    includeImages: (body.include_images as boolean | null | undefined) ?? false,
    maxAge: (body.max_age as number | null | undefined) ?? 0,
    egress,
    // The generated bodies carry no request controls (test/unit/api/visit-fields.test.ts covers them).
    visit: { device: 'desktop' },
  };
}

// ---------------------------------------------------------------------------------------------
// Generators of schema-invalid field values (wrong type, out of range, not in the enum).

const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
);

/** Strings in which the URL parser cannot find an http: or https: scheme (it drops tabs and newlines). */
const notHttpString = fc
  .string({ unit: 'binary', maxLength: 40, size: 'medium' })
  .filter((s) => !/https?:/i.test(s.replace(/[\t\n\r]/g, '')));

const invalidUrl = fc.oneof(
  fc.constant(null), // null means absent, and url is required
  notAString,
  notHttpString,
  fc.constantFrom(
    '',
    'example.com',
    '//example.com/',
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,x',
    'mailto:a@b.c',
    'http://',
    'https:///',
    'http://exa mple.com/',
    'http://[::1/',
  ),
  fc
    .integer({ min: MAX_URL_LENGTH + 1 - 'https://example.com/'.length, max: 3 * MAX_URL_LENGTH })
    .map((n) => `https://example.com/${'a'.repeat(n)}`),
);

const notOneOf = (values: readonly string[]) =>
  fc.oneof(
    fc.string().filter((s) => !values.includes(s)),
    fc.constantFrom(...values.map((v) => v.toUpperCase()), ...values.map((v) => ` ${v}`)),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 2 }),
  );

const invalidWaitMs = (maxWaitMs: number) =>
  fc.oneof(
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
    fc.integer({ min: maxWaitMs + 1, max: Number.MAX_SAFE_INTEGER }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, '5000', '', true, [1000]),
  );

const invalidRaw = fc.oneof(fc.constantFrom(0, 1, 'true', 'false', '', [], {}), fc.string(), fc.integer());
const invalidProxyName = fc.oneof(fc.constant(''), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }));
const invalidCountry = fc.oneof(
  fc.string().filter((s) => !/^[A-Za-z]{2}$/.test(s)),
  fc.constantFrom('USA', 'u', 'U1', ' US', 'US\n', 'ÜS'),
  fc.integer(),
  fc.boolean(),
);

const invalidFor = (maxWaitMs: number): Record<Field, fc.Arbitrary<unknown>> => ({
  url: invalidUrl,
  output_format: notOneOf(OUTPUT_FORMATS),
  wait_ms: invalidWaitMs(maxWaitMs),
  wait_event: notOneOf(WAIT_EVENTS),
  raw: invalidRaw,
  include_metadata: invalidRaw,
  only_main_content: invalidRaw,
  include_links: invalidRaw,
  include_images: invalidRaw,
  max_age: invalidWaitMs(DEFAULT_CONFIG.maxCacheAge),
  proxy_name: invalidProxyName,
  country: invalidCountry,
  wait_for_selector: fc.oneof(fc.constantFrom('', '  ', 'div;p', '{', `#${'a'.repeat(1024)}`), fc.integer(), fc.boolean()),
  scroll: invalidRaw,
  include_selectors: invalidSelectorList,
  exclude_selectors: invalidSelectorList,
  consent: notOneOf(['reject', 'keep']),
});

/** A body where a non-empty random subset of fields is schema-invalid; returns it with that subset. */
const mixedBody = (maxWaitMs: number) =>
  fc
    .subarray([...KNOWN_FIELDS], { minLength: 1 })
    .chain((invalid) => {
      const valid = validFor(maxWaitMs);
      const bad = invalidFor(maxWaitMs);
      const parts = Object.fromEntries(KNOWN_FIELDS.map((f) => [f, invalid.includes(f) ? bad[f] : valid[f]])) as Record<
        Field,
        fc.Arbitrary<unknown>
      >;
      return fc.tuple(fc.record(parts), fc.constant(new Set<string>(invalid)));
    })
    .map(([fields, invalid]) => ({ body: bodyOf(fields as Body), invalid }));

/** Keys that are not one of the body's fields: random, look-alikes, and Object.prototype names. */
const unknownKey = fc
  .oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      'URL',
      'Url',
      'url ',
      'waitMs',
      'outputFormat',
      'format',
      'wait',
      'timeout',
      'headers',
      'proxy',
      'constructor',
      'toString',
      'hasOwnProperty',
      '__proto__',
      'prototype',
      '',
    ),
  )
  .filter((key) => !([...KNOWN_FIELDS, ...VISIT_FIELDS] as readonly string[]).includes(key));

// ---------------------------------------------------------------------------------------------

describe('parseFetchRequest on bodies that are not JSON objects', SUITE, () => {
  it('rejects every JSON value that is not an object with malformed_json', () => {
    const notAnObject = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.array(fc.jsonValue(), { maxLength: 5 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(notAnObject, (json) => {
        const error = rejection(json, DEFAULT_CONFIG);
        expect(error.code).toBe('malformed_json');
        expect(error.details).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('rejects an array even when its elements are valid request bodies', () => {
    fc.assert(
      fc.property(fc.array(validDefaultBody(DEFAULT_CONFIG.maxWaitMs), { minLength: 1, maxLength: 3 }), (bodies) => {
        expect(
          rejection(
            bodies.map((b) => bodyOf(b)),
            DEFAULT_CONFIG,
          ).code,
        ).toBe('malformed_json');
      }),
      { ...RUNS, numRuns: 100 },
    );
  });
});

describe('parseFetchRequest on valid bodies', SUITE, () => {
  it('accepts every body built from valid fields and applies the documented defaults', () => {
    fc.assert(
      fc.property(validDefaultBody(DEFAULT_CONFIG.maxWaitMs), (fields) => {
        const result = outcome(bodyOf(fields), DEFAULT_CONFIG);
        if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error.details)}`);
        expect(result.value).toEqual(expectedRequest(fields));
      }),
      RUNS,
    );
  });

  it('accepts every valid proxy and country combination and routes it as docs/api.md "Proxies and country" describes', () => {
    fc.assert(
      fc.property(validProxyBody, (fields) => {
        const result = outcome(bodyOf(fields), PROXY_CONFIG);
        if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.error.details)}`);
        expect(result.value).toEqual(expectedRequest(fields));
      }),
      RUNS,
    );
  });

  it('bounds wait_ms by the configured MAX_WAIT_MS: 0..max accepted, max+1 refused', () => {
    const scenario = fc.integer({ min: 1, max: 10_000_000 }).chain((max) => fc.tuple(fc.constant(max), fc.integer({ min: 0, max })));
    fc.assert(
      fc.property(scenario, ([max, waitMs]) => {
        const config = readConfig({ MAX_WAIT_MS: String(max) });
        expect(parseFetchRequest({ url: 'https://example.com/', wait_ms: waitMs }, config).waitMs).toBe(
          waitMs === 0 ? DEFAULT_WAIT_MS : waitMs,
        );
        const error = rejection({ url: 'https://example.com/', wait_ms: max + 1 }, config);
        expect(error.code).toBe('invalid_request');
        expect([...detailFields(error)]).toEqual(['wait_ms']);
      }),
      RUNS,
    );
  });

  it('returns the url exactly as given, without normalizing it', () => {
    fc.assert(
      fc.property(validUrl, (url) => {
        expect(parseFetchRequest({ url }, DEFAULT_CONFIG).url).toBe(url);
      }),
      RUNS,
    );
  });
});

describe('parseFetchRequest on invalid bodies', SUITE, () => {
  it('rejects any unknown key with invalid_request naming exactly the unknown keys', () => {
    const scenario = fc.tuple(
      validDefaultBody(DEFAULT_CONFIG.maxWaitMs),
      fc.uniqueArray(unknownKey, { minLength: 1, maxLength: 3 }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(scenario, ([fields, keys, value]) => {
        const body = bodyOf(fields);
        for (const key of keys) withKey(body, key, value);
        const error = rejection(body, DEFAULT_CONFIG);
        expect(error.code).toBe('invalid_request');
        expect(detailFields(error)).toEqual(new Set(keys));
        for (const detail of error.details ?? []) expect(detail.message).toBe('is not a known field');
      }),
      RUNS,
    );
  });

  it('reports exactly the set of schema-invalid fields, every one of them, with a message each', () => {
    fc.assert(
      fc.property(mixedBody(DEFAULT_CONFIG.maxWaitMs), ({ body, invalid }) => {
        const error = rejection(body, DEFAULT_CONFIG);
        expect(error.code).toBe('invalid_request');
        expect(detailFields(error)).toEqual(invalid);
        for (const detail of error.details ?? []) expect(detail.message).toMatch(/\S/);
      }),
      RUNS,
    );
  });

  it('reports unknown keys alongside the schema-invalid fields', () => {
    const scenario = fc.tuple(mixedBody(DEFAULT_CONFIG.maxWaitMs), fc.uniqueArray(unknownKey, { minLength: 1, maxLength: 2 }));
    fc.assert(
      fc.property(scenario, ([{ body, invalid }, keys]) => {
        for (const key of keys) withKey(body, key, 1);
        const error = rejection(body, DEFAULT_CONFIG);
        expect(error.code).toBe('invalid_request');
        expect(detailFields(error)).toEqual(new Set([...invalid, ...keys]));
      }),
      RUNS,
    );
  });

  it('reports an unconfigured proxy_name, or a country Browser Rendering cannot launch in, as that one field', () => {
    const launchable = new Set<string>(BROWSER_LOCATIONS);
    const scenario = fc.oneof(
      fc.tuple(
        fc.constant('proxy_name'),
        fc.string({ minLength: 1 }).filter((name) => !['fast_dc', 'dc', 'res'].includes(name)),
      ),
      fc.tuple(
        fc.constant('country'),
        twoLetters.filter((code) => !launchable.has(code.toUpperCase())),
      ),
    );
    fc.assert(
      fc.property(validDefaultBody(PROXY_CONFIG.maxWaitMs), scenario, (fields, [field, value]) => {
        const body = bodyOf({ ...fields, proxy_name: field === 'country' ? 'fast_dc' : fields.proxy_name, [field]: value });
        const error = rejection(body, PROXY_CONFIG);
        expect(error.code).toBe('invalid_request');
        expect([...detailFields(error)]).toEqual([field]);
      }),
      RUNS,
    );
  });
});

describe('parseFetchRequest totality', SUITE, () => {
  it('never throws anything but an ApiError, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withTypedArray: true,
          withDate: true,
          withBigInt: true,
        }),
        (json) => {
          const result = outcome(json, DEFAULT_CONFIG);
          if (!result.ok) expect(['malformed_json', 'invalid_request']).toContain(result.error.code);
        },
      ),
      RUNS,
    );
  });

  it('never throws anything but an ApiError for objects with known keys holding arbitrary values', () => {
    const arbitraryFields = fc.record(
      Object.fromEntries(
        KNOWN_FIELDS.map((f) => [f, fc.anything({ withBoxedValues: true, withNullPrototype: true, withBigInt: true, withDate: true })]),
      ) as Record<Field, fc.Arbitrary<unknown>>,
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(arbitraryFields, fc.boolean(), (fields, nullPrototype) => {
        const body = bodyOf(fields as Body);
        const json = nullPrototype ? Object.assign(Object.create(null) as object, body) : body;
        const result = outcome(json, PROXY_CONFIG);
        if (!result.ok) {
          expect(result.error.code).toBe('invalid_request');
          expect(result.error.details?.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });
});
