// The normalized form of a URL that a job dedups by (docs/api.md "Sites", Dedup): scheme and host lower
// case, default port and fragment dropped, percent-encoding normalized (upper-case hex, unreserved
// characters decoded), and the query dropped when the job ignores queries. WHATWG URL parsing already
// lower-cases the scheme and host and drops a default port; the rest is ours.

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `%7e` → `~`, `%2f` → `%2F`: one spelling per byte, so two spellings of a URL dedup as one. */
function normalizePercentEncoding(part: string): string {
  return part.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** Whether `url` parses as an absolute http(s) URL with a host. */
export function parseHttpUrl(url: string, base?: string): URL | undefined {
  try {
    const parsed = new URL(url, base);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/** The normalized form of an absolute http(s) URL, or undefined when it is not one. */
export function normalizeUrl(url: string, options: { ignoreQuery?: boolean } = {}): string | undefined {
  const parsed = parseHttpUrl(url);
  if (parsed === undefined) return undefined;
  parsed.hash = '';
  if (options.ignoreQuery) parsed.search = '';
  parsed.pathname = normalizePercentEncoding(parsed.pathname);
  if (parsed.search !== '') parsed.search = normalizePercentEncoding(parsed.search);
  return parsed.href;
}
