// The store key of a render (docs/api.md "Cache"): the normalized URL and every field that changes the
// content, hashed so that an 8 KiB URL fits KV's 512-byte keys. Not in the key: raw (it only shapes
// the answer), max_age (it only says which entry may answer) and the token (entries are shared).
import { type FetchRequest, requestOptions } from '../fetch-request.js';

/**
 * The URL as the key sees it: the WHATWG parser's form (scheme and host lowercase, default port
 * dropped, IDN as punycode, percent-encoding normalized) without the fragment, which never reaches
 * the server. The query is kept as written: its order can matter to the target.
 */
export function normalizeUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/** The content-changing fields of a request, normalized, in a fixed order (the key of a stored render depends on it). */
export function keyFields(request: FetchRequest): Record<string, string | number | boolean | string[] | null> {
  const { raw: _raw, max_age: _maxAge, include_links, include_images, screenshot, ...content } = requestOptions(request);
  return {
    url: normalizeUrl(request.url),
    ...content,
    // The views only when asked: the keys of requests without them stay as they were.
    ...(include_links ? { include_links } : {}),
    ...(include_images ? { include_images } : {}),
    ...(screenshot === null ? {} : { screenshot: JSON.stringify(screenshot) }),
  };
}

/** v2: stored renders say what they were read from (documentKind); v1 entries do not, and are never read. */
export async function cacheKey(request: FetchRequest): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(keyFields(request))));
  return `render:v2:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
