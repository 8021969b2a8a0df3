// Egress: where a request's traffic leaves from, the one owner of that policy (docs/api.md "Proxies and
// country"). The PROXIES secret's schema, the proxy_name/country rules, and the resolution of a
// request into a complete route (server, username with the country template applied, password),
// done once here; the browser side receives the result and applies it as it is.
import { z } from 'zod';
import type { ProxyRoute } from '../browser/index.js';
import { ConfigError, type FieldIssue } from '../errors.js';
import { browserLocation, type BrowserLocation } from '../shared/locations.js';

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

/** The browser's own egress (optionally launched in a country), or a configured upstream proxy. */
export type Egress =
  | { kind: 'direct'; location?: BrowserLocation }
  | { kind: 'proxy'; route: ProxyRoute /** The country the route's username asks for (datacenter proxies). */; country?: string };

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

/** The PROXIES secret as named proxies; throws ConfigError naming paths only, never a credential. */
export function parseProxies(raw: string | undefined): Map<string, UpstreamProxy> {
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

/** The username to send through a proxy for a request, with the country template applied. */
export function proxyUsername(proxy: UpstreamProxy, country: string | undefined): string | undefined {
  if (country === undefined || proxy.kind !== 'datacenter' || proxy.countryUsername === undefined) return proxy.username;
  return proxy.countryUsername
    .replaceAll('{username}', proxy.username ?? '')
    .replaceAll('{country}', country.toLowerCase())
    .replaceAll('{COUNTRY}', country.toUpperCase());
}

export interface EgressFields {
  proxy_name?: string | null;
  country?: string | null;
}

/**
 * The request's egress from its proxy_name and country, or undefined after pushing the failing
 * field's issue (unknown proxy, a country Browser Rendering cannot launch in, a datacenter proxy
 * without a country template).
 */
export function resolveEgress(fields: EgressFields, proxies: ReadonlyMap<string, UpstreamProxy>, issues: FieldIssue[]): Egress | undefined {
  const name = fields.proxy_name ?? DEFAULT_PROXY_NAME;
  const country = fields.country ?? undefined;
  const upstream = proxies.get(name);
  if (upstream === undefined && name !== DEFAULT_PROXY_NAME) {
    const names = [DEFAULT_PROXY_NAME, ...proxies.keys()].filter((n, i, all) => all.indexOf(n) === i);
    issues.push({ field: 'proxy_name', message: `is not a configured proxy; configured: ${names.join(', ')}` });
    return undefined;
  }
  if (upstream === undefined) {
    if (country === undefined) return { kind: 'direct' };
    const location = browserLocation(country);
    if (location === undefined) {
      issues.push({ field: 'country', message: 'is not a location Browser Rendering can run in' });
      return undefined;
    }
    return { kind: 'direct', location };
  }
  if (country !== undefined && upstream.kind === 'datacenter' && upstream.countryUsername === undefined) {
    issues.push({ field: 'country', message: `is not supported by proxy "${name}" (no country_username template)` });
    return undefined;
  }
  // For residential, ISP and mobile proxies the country has no effect (docs/api.md "Proxies and country").
  const proxyCountry = upstream.kind === 'datacenter' ? country?.toUpperCase() : undefined;
  const route: ProxyRoute = { name, server: upstream.server, username: proxyUsername(upstream, proxyCountry), password: upstream.password };
  return { kind: 'proxy', route, country: proxyCountry };
}

/** The proxy name a request's egress goes by, for logs ("fast_dc" for the browser's own egress). */
export function egressName(egress: Egress): string {
  return egress.kind === 'proxy' ? egress.route.name : DEFAULT_PROXY_NAME;
}

/** The country the traffic leaves from, as resolved: the launch location or the proxy's country. */
export function egressCountry(egress: Egress): string | undefined {
  return egress.kind === 'direct' ? egress.location : egress.country;
}
