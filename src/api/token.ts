// Bearer-token checks without Hono: parsing the Authorization header (RFC 6750 §2.1) and comparing a
// presented token against the configured ones in constant time. Both sides are hashed with SHA-256
// first so the comparison never depends on token length or on where the first differing byte is.

// RFC 6750 b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined when missing or malformed. */
export function parseBearer(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  return BEARER.exec(header)?.[1];
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i] ?? 0);
  return difference === 0;
}

/** True when `presented` equals one of `accepted`; every accepted token is compared, always. */
export async function tokenMatches(presented: string, accepted: readonly string[]): Promise<boolean> {
  const presentedDigest = await sha256(presented);
  let matched = false;
  for (const token of accepted) {
    // Non-short-circuiting `|`: the loop does the same work whichever token matches.
    matched = equalDigests(presentedDigest, await sha256(token)) || matched;
  }
  return matched;
}

/** A short, non-reversible token id for logs (never the token itself). */
export async function tokenFingerprint(token: string): Promise<string> {
  const digest = await sha256(token);
  return Array.from(digest.subarray(0, 6), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
