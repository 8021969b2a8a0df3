// The store key of a render (docs/api.md "Cache"): the normalized URL and every field that changes the
// content, hashed so that an 8 KiB URL fits KV's 512-byte keys. Not in the key: raw (it only shapes
// the answer), max_age (it only says which entry may answer) and the token (entries are shared).
import { egressCountry, egressName } from '../egress.js';
import type { FetchRequest } from '../fetch-request.js';

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

/** The content-changing fields of a request, normalized, in a fixed order. */
export function keyFields(request: FetchRequest): Record<string, string | number | boolean | string[] | null> {
  return {
    url: normalizeUrl(request.url),
    output_format: request.outputFormat,
    wait_event: request.waitEvent,
    wait_ms: request.waitMs,
    wait_for_selector: request.waitForSelector ?? null,
    scroll: request.scroll,
    include_selectors: request.includeSelectors ?? null,
    exclude_selectors: request.excludeSelectors ?? null,
    consent: request.consent,
    proxy_name: egressName(request.egress),
    country: egressCountry(request.egress) ?? null,
    only_main_content: request.onlyMainContent,
    include_metadata: request.includeMetadata,
    // Only when asked: the keys of requests without them stay as they are.
    ...(request.includeLinks ? { include_links: true } : {}),
    ...(request.includeImages ? { include_images: true } : {}),
    ...(request.screenshot === undefined ? {} : { screenshot: JSON.stringify(request.screenshot) }),
  };
}

/** v2: stored renders say what they were read from (documentKind); v1 entries do not, and are never read. */
export async function cacheKey(request: FetchRequest): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(keyFields(request))));
  return `render:v2:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
