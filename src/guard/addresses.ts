// Private-network guard (SSRF protection), the address model: whether a URL hostname or a bare IP
// address points at loopback, private, link-local or other non-public space, including IPv4 embedded
// in IPv6 and local-only names. DNS is left to the browser: a public-looking name can still resolve to
// a private address, so policy.ts also checks the address the main document came from, and the
// address space every other response of the page came from.
// Pure functions; address parsing and range classification come from ipaddr.js.

import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// Human reasons for ipaddr.js range names. Both tables follow the IANA special-purpose
// registries (RFC 6890 and updates); everything except 'unicast' is refused.
const RANGE_REASONS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address', // RFC 6598 shared address space, 100.64/10
  private: 'private address', // RFC 1918
  uniqueLocal: 'unique-local address', // RFC 4193, fc00::/7
  deprecatedSiteLocal: 'site-local address', // RFC 3879, fec0::/10
  reserved: 'reserved address',
  benchmarking: 'benchmarking address', // RFC 2544 / RFC 5180
};
const SPECIAL_PURPOSE = 'special-purpose address';

// Single-label names resolve through the resolver's search domains, so they are refused too.
const LOCAL_NAME = 'local name';
const SINGLE_LABEL_NAME = 'single-label name';

// RFC 6761 special-use names (localhost, *.local via RFC 6762, RFC 8375 home.arpa) plus
// conventional private suffixes: .internal (cloud metadata, e.g. metadata.google.internal)
// and .localdomain (/etc/hosts convention).
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain'];

function rangeReason(range: string): string | null {
  if (range === 'unicast') return null;
  return RANGE_REASONS[range] ?? SPECIAL_PURPOSE;
}

function ipv4Reason(address: IPv4): string | null {
  return rangeReason(address.range());
}

/** IPv4 address built from two 16-bit IPv6 parts (high, low). */
function ipv4FromParts(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function ipv6Reason(address: IPv6): string | null {
  const p = address.parts;
  const part = (i: number): number => p[i] ?? 0;
  const last32 = (): IPv4 => ipv4FromParts(part(6), part(7));
  const range: string = address.range();

  switch (range) {
    // ::ffff:a.b.c.d (RFC 4291 IPv4-mapped) and ::ffff:0:a.b.c.d (RFC 6145 IPv4-translated):
    // the socket really talks to the embedded IPv4 address.
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4Reason(last32());
    case 'rfc6052':
      // 64:ff9b::/96 (RFC 6052 well-known NAT64 prefix) embeds the IPv4 in the last 32 bits.
      // 64:ff9b:1::/48 (RFC 8215) is local-use by definition and the IPv4 position depends on
      // the operator's prefix length, so the whole block is refused.
      if (part(2) === 0 && part(3) === 0 && part(4) === 0 && part(5) === 0) {
        return ipv4Reason(last32());
      }
      return 'local-use NAT64 address';
    case '6to4':
      // 2002:AABB:CCDD::/48 (RFC 3056) carries the IPv4 address in parts 1-2.
      return ipv4Reason(ipv4FromParts(part(1), part(2)));
    case 'teredo':
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC (RFC 4380): server IPv4 in parts 2-3, client
      // IPv4 in parts 6-7 with every bit inverted. Refuse if either is non-public.
      return ipv4Reason(ipv4FromParts(part(2), part(3))) ?? ipv4Reason(ipv4FromParts(part(6) ^ 0xffff, part(7) ^ 0xffff));
  }

  // ::a.b.c.d (deprecated IPv4-compatible, RFC 4291 2.5.5.1). ipaddr.js calls it unicast,
  // but stacks that still honour it talk to the embedded IPv4. (:: and ::1 are caught above
  // by range(), so this only sees ::/96 with a non-trivial last 32 bits.)
  if (range === 'unicast' && p.slice(0, 6).every((x) => x === 0)) {
    return ipv4Reason(last32());
  }
  return rangeReason(range);
}

function ipReason(address: IPv4 | IPv6): string | null {
  return address.kind() === 'ipv4' ? ipv4Reason(address as IPv4) : ipv6Reason(address as IPv6);
}

/**
 * Reason a bare IP address (no brackets, e.g. the browser's resolved remote address) must not
 * be fetched, or null when it is public unicast. Unparseable input is refused (fail closed).
 */
export function privateAddressReason(address: string): string | null {
  const trimmed = address.trim();
  if (!ipaddr.isValid(trimmed)) return 'invalid address';
  return ipReason(ipaddr.parse(trimmed));
}

/**
 * Reason a URL hostname (as produced by the WHATWG URL parser: IPv6 in brackets, possibly a
 * trailing dot) must not be fetched, or null when it may be. Case-insensitive.
 */
export function privateHostReason(hostname: string): string | null {
  let host = hostname.trim().toLowerCase();

  if (host.startsWith('[') || host.includes(':')) {
    if (host.startsWith('[')) {
      if (!host.endsWith(']')) return 'invalid address';
      host = host.slice(1, -1);
    }
    // The URL parser keeps zone IDs percent-encoded if it ever accepts them.
    return privateAddressReason(host.replace(/%25/g, '%'));
  }

  host = host.replace(/\.+$/, '');
  if (host === '') return 'missing host';

  // The URL parser already rewrites decimal, hex, octal and short IPv4 forms to dotted quads;
  // ipaddr.js accepts the same legacy forms, so unparsed input is judged the same way.
  if (ipaddr.IPv4.isValid(host)) return ipv4Reason(ipaddr.IPv4.parse(host));

  if (LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return LOCAL_NAME;
  }
  if (!host.includes('.')) return SINGLE_LABEL_NAME;
  return null;
}
