// Deployment configuration: the Env the Worker receives (bindings, secrets, vars) and readConfig(),
// which turns those strings into typed settings once per request (Workers hand env to each request,
// so this is a pure function, not module state). Defaults are DESIGN.md's "Configuration" table.
import { z } from 'zod';
import type { BrowserHub } from './browser-hub.js';

export interface Env {
  // Bindings
  /** Browser Rendering binding, driven through @cloudflare/puppeteer. */
  BROWSER: Fetcher;
  /** Durable Objects that keep browser sessions open across requests, one per launch location. */
  BROWSER_HUB: DurableObjectNamespace<BrowserHub>;
  /** Per-token request limit (Workers Rate Limiting); optional so tests can run without it. */
  RATE_LIMITER?: RateLimit;
  // Secrets
  /** Comma-separated accepted bearer tokens; two at once allow rotation. */
  API_TOKENS?: string;
  /** JSON object of named upstream proxies (see ProxySettings). */
  PROXIES?: string;
  // Vars
  /** "true" lets targets on private, loopback and local addresses through (local dev and tests only). */
  ALLOW_PRIVATE_NETWORK?: string;
  /** Upper bound for a request's wait_ms, in ms. */
  MAX_WAIT_MS?: string;
  /** How long the main document may take to answer before 504 target_timeout, in ms. */
  NAVIGATION_TIMEOUT_MS?: string;
  /** Upper bound for the returned content, in bytes. */
  MAX_CONTENT_BYTES?: string;
  /** "false" lets pages download images, media and fonts (blocked by default: output cannot contain them). */
  BLOCK_MEDIA?: string;
  /** A shared browser is closed after this long without requests, in ms. */
  BROWSER_IDLE_CLOSE_MS?: string;
  /** "true" enables /__bench/* routes (benchmark baselines); never on in production. */
  BENCH_ROUTES?: string;
}

// Keeps Env in step with wrangler.toml: WorkerBindings is generated from it (`npm run types`, checked
// in CI by `npm run types:check`); a binding or var missing here fails to compile.
type MissingFromEnv = Exclude<keyof WorkerBindings, keyof Env>;
const envCoversBindings: [MissingFromEnv] extends [never] ? true : MissingFromEnv = true;
void envCoversBindings;

export const PROXY_KINDS = ['datacenter', 'residential', 'isp', 'mobile'] as const;
export type ProxyKind = (typeof PROXY_KINDS)[number];

/** The browser's own egress: always defined, unless PROXIES redefines it. */
export const DEFAULT_PROXY_NAME = 'fast_dc';

export interface UpstreamProxy {
  kind: ProxyKind;
  /** Proxy server URL as Chrome takes it, e.g. "http://host:port". */
  server: string;
  username?: string;
  password?: string;
  /** Username template for a country, e.g. "{username}-country-{country}". */
  countryUsername?: string;
}

export interface Config {
  apiTokens: string[];
  /** Upstream proxies by name; "fast_dc" is here only when PROXIES redefines it. */
  proxies: ReadonlyMap<string, UpstreamProxy>;
  allowPrivateNetwork: boolean;
  maxWaitMs: number;
  navigationTimeoutMs: number;
  maxContentBytes: number;
  blockMedia: boolean;
  browserIdleCloseMs: number;
  benchRoutes: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const proxyServer = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'socks4:', 'socks5:'].includes(url.protocol) && url.hostname !== '' && url.pathname.length <= 1;
  } catch {
    return false;
  }
}, 'must be a proxy URL such as "http://host:port"');

const proxyEntry = z.strictObject({
  kind: z.enum(PROXY_KINDS),
  server: proxyServer,
  username: z.string().min(1).optional(),
  password: z.string().optional(),
  country_username: z.string().includes('{country}', { message: 'must contain "{country}"' }).optional(),
});

const proxiesSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), proxyEntry);

function parseProxies(raw: string | undefined): Map<string, UpstreamProxy> {
  const proxies = new Map<string, UpstreamProxy>();
  if (raw === undefined || raw.trim() === '') return proxies;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError('PROXIES is not valid JSON');
  }
  const parsed = proxiesSchema.safeParse(json);
  if (!parsed.success) {
    // Only paths and messages: the secret's values (credentials) never reach a log.
    const where = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`PROXIES is invalid (${where})`);
  }
  for (const [name, entry] of Object.entries(parsed.data)) {
    proxies.set(name, {
      kind: entry.kind,
      server: entry.server,
      username: entry.username,
      password: entry.password,
      countryUsername: entry.country_username,
    });
  }
  return proxies;
}

function parseTokens(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive integer`);
  return value;
}

function flag(raw: string | undefined): string | undefined {
  return raw?.trim().toLowerCase();
}

/** Typed settings from env; throws ConfigError on a malformed var or secret (the app answers 500). */
export function readConfig(env: Partial<Env>): Config {
  return {
    apiTokens: parseTokens(env.API_TOKENS),
    proxies: parseProxies(env.PROXIES),
    allowPrivateNetwork: flag(env.ALLOW_PRIVATE_NETWORK) === 'true',
    maxWaitMs: parsePositiveInt('MAX_WAIT_MS', env.MAX_WAIT_MS, 60_000),
    navigationTimeoutMs: parsePositiveInt('NAVIGATION_TIMEOUT_MS', env.NAVIGATION_TIMEOUT_MS, 30_000),
    maxContentBytes: parsePositiveInt('MAX_CONTENT_BYTES', env.MAX_CONTENT_BYTES, 10 * 1024 * 1024),
    blockMedia: flag(env.BLOCK_MEDIA) !== 'false',
    browserIdleCloseMs: parsePositiveInt('BROWSER_IDLE_CLOSE_MS', env.BROWSER_IDLE_CLOSE_MS, 60_000),
    benchRoutes: flag(env.BENCH_ROUTES) === 'true',
  };
}

/** The username to send through a proxy for a request, with the country template applied. */
export function proxyUsername(proxy: UpstreamProxy, country: string | undefined): string | undefined {
  if (country === undefined || proxy.kind !== 'datacenter' || proxy.countryUsername === undefined) return proxy.username;
  return proxy.countryUsername
    .replaceAll('{username}', proxy.username ?? '')
    .replaceAll('{country}', country.toLowerCase())
    .replaceAll('{COUNTRY}', country.toUpperCase());
}
