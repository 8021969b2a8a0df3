// Which URLs belong to a site (docs/api.md "Sites"): http(s) only, the start URL's host name and port,
// and its subdomains when asked; and the trap bounds past which a URL is never followed.

/** A URL longer than this is skipped: a generated path, not a page. */
export const MAX_SITE_URL_LENGTH = 2048;
/** A URL deeper than this many path segments is skipped: a crawler trap. */
export const MAX_PATH_SEGMENTS = 32;

function effectivePort(url: URL): string {
  if (url.port !== '') return url.port;
  return url.protocol === 'https:' ? '443' : '80';
}

/** Whether `url` is on the site of `start`: same host name (or a subdomain of it when asked) and port. */
export function inScope(url: URL, start: URL, includeSubdomains: boolean): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (effectivePort(url) !== effectivePort(start)) return false;
  if (url.hostname === start.hostname) return true;
  return includeSubdomains && url.hostname.endsWith(`.${start.hostname}`);
}

/** Whether `url` is past the trap bounds: too long, or too many path segments. */
export function isTrapUrl(url: URL): boolean {
  if (url.href.length > MAX_SITE_URL_LENGTH) return true;
  return url.pathname.split('/').filter((segment) => segment !== '').length > MAX_PATH_SEGMENTS;
}
