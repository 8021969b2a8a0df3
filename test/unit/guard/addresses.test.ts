import { describe, expect, it } from 'vitest';
import { privateAddressReason, privateHostReason } from '../../../src/guard/addresses';

/** Hostname exactly as the Worker sees it after parsing the caller's URL. */
const hostOf = (input: string): string => new URL(input).hostname;

describe('privateHostReason on URLs the WHATWG parser accepts', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback address'],
    ['http://2130706433/', 'loopback address'], // decimal
    ['http://0x7f000001/', 'loopback address'], // hex
    ['http://0177.0.0.1/', 'loopback address'], // octal
    ['http://127.1/', 'loopback address'], // short form
    ['http://0x7f.1/', 'loopback address'], // mixed hex + short form
    ['http://127.0.0.1./', 'loopback address'], // trailing dot
    ['http://[::1]/', 'loopback address'],
    ['http://[0:0:0:0:0:0:0:1]/', 'loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'loopback address'], // IPv4-mapped, dotted
    ['http://[::ffff:7f00:1]/', 'loopback address'], // IPv4-mapped, hex
    ['http://[::ffff:0:127.0.0.1]/', 'loopback address'], // IPv4-translated (RFC 6145)
    ['http://[::127.0.0.1]/', 'loopback address'], // IPv4-compatible
    ['http://[64:ff9b::7f00:1]/', 'loopback address'], // NAT64 (RFC 6052)
    ['http://[64:ff9b::a9fe:a9fe]/', 'link-local address'], // NAT64 of 169.254.169.254
    ['http://[2002:7f00:1::]/', 'loopback address'], // 6to4 of 127.0.0.1
    ['http://169.254.169.254/latest/meta-data', 'link-local address'],
    ['http://[fe80::1]/', 'link-local address'],
    ['http://10.0.0.1/', 'private address'],
    ['http://172.16.5.4/', 'private address'],
    ['http://172.31.255.255/', 'private address'],
    ['http://192.168.1.1/', 'private address'],
    ['http://[::ffff:10.1.2.3]/', 'private address'],
    ['http://[fd00:ec2::254]/', 'unique-local address'],
    ['http://[fc00::1]/', 'unique-local address'],
    ['http://100.100.100.200/', 'carrier-grade NAT address'],
    ['http://0.0.0.0/', 'unspecified address'],
    ['http://0/', 'unspecified address'],
    ['http://[::]/', 'unspecified address'],
    ['http://224.0.0.1/', 'multicast address'],
    ['http://[ff02::1]/', 'multicast address'],
    ['http://255.255.255.255/', 'broadcast address'],
    ['http://240.0.0.1/', 'reserved address'],
    ['http://[fec0::1]/', 'site-local address'],
    ['http://LOCALHOST./', 'local name'],
    ['http://localhost/', 'local name'],
    ['http://foo.localhost/', 'local name'],
    ['http://printer.local/', 'local name'],
    ['http://metadata.google.internal/', 'local name'],
    ['http://nas.home.arpa/', 'local name'],
    ['http://box.localdomain/', 'local name'],
    ['http://intranet/', 'single-label name'],
    ['http://intranet./', 'single-label name'],
  ])('refuses %s as %s', (input, reason) => {
    expect(privateHostReason(hostOf(input))).toBe(reason);
  });

  it.each([
    'http://example.com/',
    'https://example.com./path',
    'http://8.8.8.8/',
    'http://1.1.1.1/',
    'http://172.32.0.1/', // just outside 172.16/12
    'http://100.128.0.1/', // just outside 100.64/10
    'http://[2606:4700::1111]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[64:ff9b::8.8.8.8]/',
    'http://[2002:808:808::1]/',
    'http://localhost.example.com/', // "localhost" only as a non-final label
    'http://xn--bcher-kva.example/',
  ])('allows public target %s', (input) => {
    expect(privateHostReason(hostOf(input))).toBeNull();
  });

  it('rejects an IPv6 zone ID at the URL parser, before the guard sees it', () => {
    expect(() => new URL('http://[fe80::1%25eth0]/')).toThrow(TypeError);
  });
});

describe('privateHostReason on raw hostnames', () => {
  it.each([
    ['LocalHost', 'local name'],
    ['Printer.LOCAL.', 'local name'],
    ['metadata.google.internal.', 'local name'],
    ['[::1]', 'loopback address'],
    ['::1', 'loopback address'], // unbracketed IPv6 is still judged as an address
    ['0x7f000001', 'loopback address'], // legacy IPv4 forms not yet normalised by a URL parser
    ['[fe80::1%25eth0]', 'link-local address'],
    ['[not-an-ip]', 'invalid address'],
    ['[::1', 'invalid address'],
    ['', 'missing host'],
    ['.', 'missing host'],
  ])('refuses %j as %s', (hostname, reason) => {
    expect(privateHostReason(hostname)).toBe(reason);
  });

  it.each(['Example.COM', 'example.com.', 'sub.example.co.uk'])('allows public name %j', (hostname) => {
    expect(privateHostReason(hostname)).toBeNull();
  });
});

describe('privateAddressReason on resolved remote addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback address'],
    ['127.255.255.254', 'loopback address'],
    ['10.255.0.1', 'private address'],
    ['169.254.169.254', 'link-local address'],
    ['100.64.0.1', 'carrier-grade NAT address'],
    ['192.0.0.8', 'reserved address'], // RFC 6890 IETF protocol assignments
    ['192.0.2.1', 'reserved address'], // TEST-NET-1 documentation range
    ['198.18.0.1', 'reserved address'], // benchmarking, classified reserved by ipaddr.js
    ['::1', 'loopback address'],
    ['fe80::1%eth0', 'link-local address'],
    ['fd00:ec2::254', 'unique-local address'],
    ['::ffff:7f00:1', 'loopback address'],
    ['::ffff:0:a00:1', 'private address'], // IPv4-translated 10.0.0.1
    ['::c0a8:101', 'private address'], // IPv4-compatible 192.168.1.1
    ['::0.0.0.2', 'unspecified address'], // IPv4-compatible 0.0.0.2
    ['64:ff9b::7f00:1', 'loopback address'],
    ['64:ff9b::a00:1', 'private address'],
    ['64:ff9b:1::808:808', 'local-use NAT64 address'], // RFC 8215 local-use prefix
    ['2002:a9fe:a9fe::1', 'link-local address'], // 6to4 of 169.254.169.254
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback address'], // Teredo client 127.0.0.1
    ['2001:0:7f00:1::', 'loopback address'], // Teredo server 127.0.0.1
    ['2001:db8::1', 'reserved address'], // documentation
    ['2001:2::1', 'benchmarking address'],
    ['100::1', 'special-purpose address'], // RFC 6666 discard-only
    ['not an address', 'invalid address'],
    ['', 'invalid address'],
    ['[::1]', 'invalid address'], // brackets belong to URLs, not bare addresses
  ])('refuses %s as %s', (address, reason) => {
    expect(privateAddressReason(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo client 8.8.8.8 via public server
  ])('allows public unicast %s', (address) => {
    expect(privateAddressReason(address)).toBeNull();
  });
});
