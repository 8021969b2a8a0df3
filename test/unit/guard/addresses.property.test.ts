// Property-based tests for the private-network guard: over the whole IPv4 space the verdict
// matches an independent table of the IANA special-purpose ranges, every spelling the WHATWG
// URL parser accepts for an address (and every IPv6 form that embeds it) gets the same verdict,
// fixed IPv6 non-public blocks are always refused, and no input makes the guard throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { privateAddressReason, privateHostReason } from '../../../src/guard/addresses';

const RUNS = { numRuns: 500, seed: 0x7a11ce };
// Property runs are CPU-bound: a roomy timeout keeps them from flaking on a busy machine.
const SUITE = { timeout: 30_000 };

// ---------------------------------------------------------------------------------------------
// Reference classifier, written from the registries rather than from ipaddr.js:
// the IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates) plus the IPv4
// multicast block (RFC 5771). target-guard.ts documents that it refuses "everything except
// unicast" in those registries, so entries IANA marks globally reachable (AS112, AMT) are in
// the table too. Where the module names a specific reason for a range, the table holds it;
// 'refused' means any reason is acceptable.

type Verdict = string | null;
const REFUSED = 'refused';

const IPV4_SPECIAL: readonly (readonly [cidr: string, reason: string])[] = [
  ['0.0.0.0/8', 'unspecified address'], // RFC 791 "this network"
  ['10.0.0.0/8', 'private address'], // RFC 1918
  ['100.64.0.0/10', 'carrier-grade NAT address'], // RFC 6598
  ['127.0.0.0/8', 'loopback address'], // RFC 1122
  ['169.254.0.0/16', 'link-local address'], // RFC 3927
  ['172.16.0.0/12', 'private address'], // RFC 1918
  ['192.0.0.0/24', REFUSED], // RFC 6890 IETF protocol assignments
  ['192.0.2.0/24', REFUSED], // RFC 5737 TEST-NET-1
  ['192.31.196.0/24', REFUSED], // RFC 7535 AS112-v4
  ['192.52.193.0/24', REFUSED], // RFC 7450 AMT
  ['192.88.99.0/24', REFUSED], // RFC 7526 deprecated 6to4 relay anycast
  ['192.168.0.0/16', 'private address'], // RFC 1918
  ['192.175.48.0/24', REFUSED], // RFC 7534 direct delegation AS112
  ['198.18.0.0/15', REFUSED], // RFC 2544 benchmarking
  ['198.51.100.0/24', REFUSED], // RFC 5737 TEST-NET-2
  ['203.0.113.0/24', REFUSED], // RFC 5737 TEST-NET-3
  ['224.0.0.0/4', 'multicast address'], // RFC 5771
  ['255.255.255.255/32', 'broadcast address'], // RFC 919 limited broadcast (before 240/4: more specific)
  ['240.0.0.0/4', REFUSED], // RFC 1112 reserved
];

interface Block {
  first: number;
  last: number;
  reason: string;
}

function parseCidr(cidr: string): { first: number; last: number } {
  const [address, bits] = cidr.split('/') as [string, string];
  const base = address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  return { first: base, last: base + size - 1 };
}

const BLOCKS: readonly Block[] = IPV4_SPECIAL.map(([cidr, reason]) => ({ ...parseCidr(cidr), reason }));

function referenceVerdict(n: number): Verdict {
  for (const block of BLOCKS) if (n >= block.first && n <= block.last) return block.reason;
  return null;
}

function matchesReference(actual: Verdict, expected: Verdict): boolean {
  if (expected === null) return actual === null;
  if (expected === REFUSED) return typeof actual === 'string' && actual.length > 0;
  return actual === expected;
}

const octets = (n: number): [number, number, number, number] => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const dotted = (n: number): string => octets(n).join('.');
const hex16 = (n: number): string => n.toString(16);
const high16 = (n: number): number => (n >>> 16) & 0xffff;
const low16 = (n: number): number => n & 0xffff;
const refused = (verdict: Verdict): boolean => verdict !== null;
/** Hostname exactly as the Worker sees it (app.ts calls privateHostReason(new URL(url).hostname)). */
const hostOf = (authority: string): string => new URL(`http://${authority}/`).hostname;

// ---------------------------------------------------------------------------------------------
// Generators. Uniform 32-bit addresses alone would almost never land in a /24, so addresses are
// also drawn inside every special block and on every block edge (first, last and one beyond).

const uniformIPv4 = fc.integer({ min: 0, max: 0xffffffff });
const insideBlock = fc.constantFrom(...BLOCKS).chain((b) => fc.integer({ min: b.first, max: b.last }));
const blockEdges = BLOCKS.flatMap((b) => [b.first - 1, b.first, b.last, b.last + 1]).filter((n) => n >= 0 && n <= 0xffffffff);
const edgeIPv4 = fc.constantFrom(...blockEdges);
const fromFcIPv4 = fc.ipV4().map((s) => s.split('.').reduce((acc, o) => acc * 256 + Number(o), 0));
const ipv4 = fc.oneof(uniformIPv4, insideBlock, edgeIPv4, fromFcIPv4);

type Radix = 'dec' | 'hex' | 'oct';
const radix = fc.constantFrom<Radix>('dec', 'hex', 'oct');

/** One WHATWG IPv4 number in a radix, with random hex case and leading zeros. */
const spellNumber = (value: number, base: Radix, upper: boolean, zeros: number): string => {
  if (base === 'dec') return String(value);
  if (base === 'hex') {
    const digits = value === 0 && zeros === 0 ? '' : '0'.repeat(zeros) + value.toString(16); // "0x" alone is 0
    return `${upper ? '0X' : '0x'}${upper ? digits.toUpperCase() : digits}`;
  }
  return `0${'0'.repeat(zeros)}${value.toString(8)}`;
};

/** Every shape of IPv4 host the URL parser accepts: 1 to 4 parts, each in any radix, optional trailing dot. */
const ipv4Spelling = fc
  .record({
    n: ipv4,
    parts: fc.constantFrom(1, 2, 3, 4),
    radices: fc.array(radix, { minLength: 4, maxLength: 4 }),
    upper: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    zeros: fc.array(fc.nat({ max: 3 }), { minLength: 4, maxLength: 4 }),
    trailingDot: fc.boolean(),
  })
  .map(({ n, parts, radices, upper, zeros, trailingDot }) => {
    const [a, b, c, d] = octets(n);
    // WHATWG: the last part holds all remaining bytes.
    const values = parts === 1 ? [n] : parts === 2 ? [a, n & 0xffffff] : parts === 3 ? [a, b, n & 0xffff] : [a, b, c, d];
    const spelling = values.map((v, i) => spellNumber(v, radices[i]!, upper[i]!, zeros[i]!)).join('.');
    return { n, spelling: trailingDot ? `${spelling}.` : spelling };
  });

/** IPv6 forms that embed an IPv4 address in their last 32 bits (or, for 6to4, bits 16-47). */
const embeddings: readonly (readonly [name: string, form: (n: number) => string])[] = [
  ['IPv4-mapped dotted ::ffff:a.b.c.d', (n) => `::ffff:${dotted(n)}`],
  ['IPv4-mapped hex ::ffff:x:y', (n) => `::ffff:${hex16(high16(n))}:${hex16(low16(n))}`],
  ['IPv4-mapped expanded 0:0:0:0:0:ffff:x:y', (n) => `0:0:0:0:0:FFFF:${hex16(high16(n)).toUpperCase()}:${hex16(low16(n))}`],
  ['IPv4-translated ::ffff:0:a.b.c.d', (n) => `::ffff:0:${dotted(n)}`],
  ['IPv4-compatible ::a.b.c.d', (n) => `::${dotted(n)}`],
  ['NAT64 64:ff9b::a.b.c.d', (n) => `64:ff9b::${dotted(n)}`],
  ['NAT64 64:ff9b::x:y', (n) => `64:ff9b::${hex16(high16(n))}:${hex16(low16(n))}`],
  ['6to4 2002:xxxx:yyyy::', (n) => `2002:${hex16(high16(n))}:${hex16(low16(n))}::1`],
];

/** Eight random 16-bit groups with a fixed prefix of `bits` bits taken from `prefix`. */
function inPrefix(prefix: readonly number[], bits: number): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((groups) => {
    const out = groups.map((g, i) => {
      const fixed = Math.max(0, Math.min(16, bits - 16 * i));
      const mask = fixed === 0 ? 0 : (0xffff << (16 - fixed)) & 0xffff;
      return ((prefix[i] ?? 0) & mask) | (g & ~mask & 0xffff);
    });
    return out.map(hex16).join(':');
  });
}

// ---------------------------------------------------------------------------------------------

describe('IPv4 verdicts against the IANA special-purpose registry', SUITE, () => {
  it('refuses an IPv4 address exactly when the reference table lists it, with the same reason', () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const address = dotted(n);
        const actual = privateAddressReason(address);
        if (!matchesReference(actual, referenceVerdict(n))) {
          throw new Error(`${address}: module says ${String(actual)}, reference says ${String(referenceVerdict(n))}`);
        }
      }),
      { ...RUNS, numRuns: 2000 },
    );
  });

  it('matches the reference on every /16 (first and last address) and on every /24 of 100/8, 192/8, 198/8 and 203/8', () => {
    // Random sampling would almost never notice a wrongly refused or allowed /24, so the
    // coarse grid is swept exhaustively, and the /8s holding the registry's /24 entries finely.
    const mismatches: string[] = [];
    const check = (n: number): void => {
      const actual = privateAddressReason(dotted(n));
      if (!matchesReference(actual, referenceVerdict(n)) && mismatches.length < 10) {
        mismatches.push(`${dotted(n)}: module ${String(actual)}, reference ${String(referenceVerdict(n))}`);
      }
    };
    for (let net16 = 0; net16 < 0x10000; net16++) {
      check(net16 * 0x10000);
      check(net16 * 0x10000 + 0xffff);
    }
    for (const first of [100, 192, 198, 203]) {
      for (let net24 = 0; net24 < 0x10000; net24++) check(first * 0x1000000 + net24 * 0x100 + 1);
    }
    expect(mismatches).toEqual([]);
  });

  it('judges every block edge (first, last and the neighbours outside) like the reference table', () => {
    for (const n of blockEdges)
      expect([dotted(n), matchesReference(privateAddressReason(dotted(n)), referenceVerdict(n))]).toEqual([dotted(n), true]);
  });

  it('gives a dotted-quad hostname the same verdict as the bare address', () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        expect(privateHostReason(dotted(n))).toBe(privateAddressReason(dotted(n)));
        expect(privateHostReason(`${dotted(n)}.`)).toBe(privateAddressReason(dotted(n)));
      }),
      RUNS,
    );
  });
});

describe('IPv4 spellings the WHATWG URL parser accepts', SUITE, () => {
  it('normalizes every decimal, hex, octal, short and mixed spelling to the dotted quad', () => {
    fc.assert(
      fc.property(ipv4Spelling, ({ n, spelling }) => {
        expect(hostOf(spelling)).toBe(dotted(n));
      }),
      RUNS,
    );
  });

  it('gives every spelling of an address the verdict of its dotted quad after URL parsing', () => {
    fc.assert(
      fc.property(ipv4Spelling, ({ n, spelling }) => {
        const verdict = privateHostReason(hostOf(spelling));
        expect(verdict).toBe(privateAddressReason(dotted(n)));
        expect(matchesReference(verdict, referenceVerdict(n))).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('IPv6 forms that embed an IPv4 address', SUITE, () => {
  it.each(embeddings)('%s gets the embedded address verdict, bare and as a bracketed URL host', (_name, form) => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const v4Refused = refused(privateAddressReason(dotted(n)));
        const bare = privateAddressReason(form(n));
        const viaUrl = privateHostReason(hostOf(`[${form(n)}]`));
        expect(refused(bare)).toBe(v4Refused);
        expect(refused(viaUrl)).toBe(v4Refused);
      }),
      RUNS,
    );
  });

  it('refuses a Teredo address when either its server or its (inverted) client IPv4 is refused', () => {
    const scenario = fc.tuple(ipv4, ipv4, fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }));
    fc.assert(
      fc.property(scenario, ([server, client, flags, port]) => {
        const inverted = ~client >>> 0;
        const address = `2001:0:${hex16(high16(server))}:${hex16(low16(server))}:${hex16(flags)}:${hex16(port)}:${hex16(high16(inverted))}:${hex16(low16(inverted))}`;
        const expected = refused(privateAddressReason(dotted(server))) || refused(privateAddressReason(dotted(client)));
        expect(refused(privateAddressReason(address))).toBe(expected);
        expect(refused(privateHostReason(hostOf(`[${address}]`)))).toBe(expected);
      }),
      RUNS,
    );
  });
});

describe('IPv6 non-public blocks', SUITE, () => {
  const blocks: readonly (readonly [name: string, arb: fc.Arbitrary<string>])[] = [
    ['fc00::/7 unique-local', inPrefix([0xfc00], 7)],
    ['fe80::/10 link-local', inPrefix([0xfe80], 10)],
    ['fec0::/10 site-local', inPrefix([0xfec0], 10)],
    ['ff00::/8 multicast', inPrefix([0xff00], 8)],
    ['64:ff9b:1::/48 local-use NAT64', inPrefix([0x64, 0xff9b, 0x1], 48)],
    [
      '::1 and :: in any spelling',
      fc.constantFrom('::1', '::', '0:0:0:0:0:0:0:1', '0::0', '0000:0000:0000:0000:0000:0000:0000:0000', '::0:1'),
    ],
  ];

  it.each(blocks)('refuses every address in %s, bare and as a bracketed URL host', (_name, arb) => {
    fc.assert(
      fc.property(arb, (address) => {
        expect(privateAddressReason(address)).toEqual(expect.any(String));
        expect(privateHostReason(hostOf(`[${address}]`))).toEqual(expect.any(String));
      }),
      RUNS,
    );
  });

  it('gives a random IPv6 address the same verdict bare, bracketed and after URL normalization', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const bare = privateAddressReason(address);
        expect(bare === null || typeof bare === 'string').toBe(true);
        expect(privateHostReason(`[${address}]`)).toBe(bare);
        expect(privateHostReason(hostOf(`[${address}]`))).toBe(bare);
      }),
      RUNS,
    );
  });
});

describe('names and arbitrary input', SUITE, () => {
  // Punycode-looking labels ("xn--") are left out: the URL parser rejects most of them.
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== '--');

  it('refuses every name under a local suffix and every single-label name', () => {
    const localName = fc.tuple(
      fc.array(label, { maxLength: 3 }),
      fc.constantFrom('localhost', 'local', 'internal', 'home.arpa', 'localdomain'),
    );
    fc.assert(
      fc.property(localName, fc.boolean(), ([labels, suffix], upper) => {
        const name = [...labels, suffix].join('.');
        expect(privateHostReason(hostOf(upper ? name.toUpperCase() : name))).toBe('local name');
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        label.filter((l) => !/^(\d+|0x[0-9a-f]*)$/.test(l) && !['localhost', 'local', 'internal', 'localdomain'].includes(l)),
        (name) => {
          expect(privateHostReason(hostOf(name))).toBe('single-label name');
        },
      ),
      RUNS,
    );
  });

  it('never throws on arbitrary strings and always answers a reason or null', () => {
    const input = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60, size: 'max' }),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefx:.[]%'.split('')), maxLength: 45, size: 'max' }),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef:.'.split('')), maxLength: 45, size: 'max' }),
      fc.ipV6().map((a) => `${a}%25eth0`),
      fc.ipV4Extended(),
    );
    fc.assert(
      fc.property(input, (s) => {
        const a = privateAddressReason(s);
        const h = privateHostReason(s);
        const b = privateHostReason(`[${s}]`);
        for (const verdict of [a, h, b]) expect(verdict === null || typeof verdict === 'string').toBe(true);
        // Bare-address input is fail-closed: only a parseable public address is let through.
        if (a === null) expect(s.trim()).toMatch(/^[0-9a-zA-Z.:%]+$/);
      }),
      RUNS,
    );
  });
});
