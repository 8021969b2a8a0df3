// Which of the browser's requests get the caller's extra headers (docs/api.md "Request controls"):
// those to the target's own origin (scheme, host and port of its URL) and to an origin the main
// document was redirected to within the same site; never another origin, so an Authorization meant
// for the target never reaches a third-party script or image host. User-Agent and Accept-Language
// are set for the whole page by the browser's user-agent override (so its scripts see them too);
// a request to another origin gets the browser's own (or the device's) instead. Pure: the request
// filter (request-filter.ts) asks it about each paused request.
import { getDomain } from 'tldts';

/** Header names the user-agent override sets on every request. */
const IDENTITY = ['user-agent', 'accept-language'] as const;

export interface OriginHeaders {
  /**
   * The headers to send instead of `sent` (a paused request's, as the browser would send them), or
   * undefined to send them unchanged. `mainDocument`: the page's own navigation, whose same-site
   * redirects widen the target's origins.
   */
  headersFor(url: string, sent: Record<string, string>, mainDocument: boolean): { name: string; value: string }[] | undefined;
}

function originOf(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The site of an origin: its registrable domain (an IP address or a single-label host stands alone). */
function siteOf(url: URL): string {
  return getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname;
}

/**
 * `headers` (names lower case) for the origin of `targetUrl`. `deviceUserAgent`: the user agent
 * another origin gets when the caller's User-Agent is for the target alone (a mobile device's);
 * absent: the browser's own.
 */
export function originHeaders(headers: Record<string, string>, targetUrl: string, deviceUserAgent?: string): OriginHeaders {
  const target = originOf(targetUrl);
  const origins = new Set(target === undefined ? [] : [target.origin]);
  const site = target === undefined ? undefined : siteOf(target);
  const extra = Object.entries(headers).filter(([name]) => !(IDENTITY as readonly string[]).includes(name));
  const overridden = IDENTITY.filter((name) => headers[name] !== undefined);

  return {
    headersFor(url, sent, mainDocument) {
      const origin = originOf(url);
      if (origin === undefined) return undefined;
      // A redirect of the page itself within the site (http to https, example.com to www.) stays the
      // target's; one that would drop from https to http does not.
      const sameSiteHop = mainDocument && siteOf(origin) === site && !(target?.protocol === 'https:' && origin.protocol === 'http:');
      if (sameSiteHop) origins.add(origin.origin);
      const own = origins.has(origin.origin);
      if (!own && overridden.length === 0) return undefined;
      const kept = Object.entries(sent).filter(([name]) => {
        const lower = name.toLowerCase();
        // The caller's value replaces the browser's; elsewhere the override's is dropped, so that
        // the network stack sends the browser's own.
        return own ? headers[lower] === undefined : !(overridden as string[]).includes(lower);
      });
      const added = own ? [...extra, ...overridden.map((name): [string, string] => [name, headers[name]!])] : [];
      if (!own && deviceUserAgent !== undefined && headers['user-agent'] !== undefined) added.push(['user-agent', deviceUserAgent]);
      return [...kept, ...added].map(([name, value]) => ({ name, value }));
    },
  };
}
