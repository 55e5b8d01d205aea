import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  forwardedForHops,
  normaliseAddress,
  parseTrustedProxies,
  type TrustedProxies,
} from './client-address.ts';

/** `clientAddress` with only an `X-Forwarded-For` header, as most proxies send. */
const viaXff = (peer: string, forwardedFor: string | undefined, trusted?: TrustedProxies) =>
  clientAddress(peer, { forwardedFor }, trusted);

// Proxies append the address they were reached from, so only the right end of the list is theirs
// (RFC 7239 §4 and §8.1, https://www.rfc-editor.org/rfc/rfc7239, on X-Forwarded-For's successor).
describe('clientAddress', () => {
  const proxies = parseTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);

  it('takes the right-most forwarded address that is not a trusted proxy', () => {
    expect(viaXff('127.0.0.1', '203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(viaXff('127.0.0.1', '1.2.3.4, 203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(viaXff('::ffff:127.0.0.1', '203.0.113.5, 10.1.2.3', proxies)).toBe('203.0.113.5');
    expect(viaXff('fd00::7', '2001:DB8:0::1', proxies)).toBe('2001:db8::1');
    expect(viaXff('127.0.0.1', '203.0.113.5:4711, [2001:db8::2]:443', proxies)).toBe('2001:db8::2');
  });

  it("keeps the peer's address when the peer is no trusted proxy or the header is unusable", () => {
    expect(viaXff('192.0.2.9', '203.0.113.5', proxies)).toBe('192.0.2.9');
    expect(viaXff('::ffff:192.0.2.9', '203.0.113.5', proxies)).toBe('192.0.2.9');
    expect(viaXff('127.0.0.1', '203.0.113.5', undefined)).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', 'unknown', proxies)).toBe('127.0.0.1');
    expect(viaXff('127.0.0.1', '203.0.113.5,, 10.0.0.1', proxies)).toBe('127.0.0.1');
  });

  it('falls back to the farthest hop when every hop is a trusted proxy', () => {
    expect(viaXff('127.0.0.1', '10.0.0.2, 10.0.0.1', proxies)).toBe('10.0.0.2');
  });
});

// The standard field: RFC 7239 §4 (elements split by ',', pairs by ';', values token or
// quoted-string, parameter names case-insensitive), §5.2 (`for` names the client, then each proxy),
// §6 (IPv6 bracketed and quoted, optional port, `unknown` and `_obfuscated` identifiers) and §8.1
// (only the proxies' own right end can be believed), https://www.rfc-editor.org/rfc/rfc7239.
describe('clientAddress with Forwarded', () => {
  const proxies = parseTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  const viaForwarded = (forwarded: string, peer = '127.0.0.1') =>
    clientAddress(peer, { forwarded }, proxies);

  it('takes the right-most for= address that is not a trusted proxy', () => {
    expect(viaForwarded('for=203.0.113.5')).toBe('203.0.113.5');
    expect(viaForwarded('for=192.0.2.43, for=198.51.100.17')).toBe('198.51.100.17');
    expect(viaForwarded('for=198.51.100.17;proto=https;by=10.0.0.1, for=10.0.0.2')).toBe(
      '198.51.100.17',
    );
    expect(viaForwarded('for=1.2.3.4,for=203.0.113.5 ,  for=10.9.9.9')).toBe('203.0.113.5');
    expect(viaForwarded('for=10.0.0.3, for=10.0.0.2')).toBe('10.0.0.3');
    expect(viaForwarded('for=203.0.113.5', 'fd00::1')).toBe('203.0.113.5');
  });

  it('ignores Forwarded from a peer that is no trusted proxy', () => {
    expect(viaForwarded('for=203.0.113.5', '192.0.2.9')).toBe('192.0.2.9');
    expect(clientAddress('127.0.0.1', { forwarded: 'for=203.0.113.5' }, undefined)).toBe(
      '127.0.0.1',
    );
  });

  it("counts an unusable Forwarded against the proxy's own address", () => {
    expect(viaForwarded('for=_hidden')).toBe('127.0.0.1');
    expect(viaForwarded('for=unknown')).toBe('127.0.0.1');
    expect(viaForwarded('for=_hidden, for=10.0.0.2')).toBe('127.0.0.1');
    expect(viaForwarded('proto=https;by=10.0.0.1')).toBe('127.0.0.1');
    expect(viaForwarded('for="203.0.113.5')).toBe('127.0.0.1');
  });

  it('reads only the right end: what the client wrote left of its address is never looked at', () => {
    expect(viaForwarded('for=_hidden, for=203.0.113.5')).toBe('203.0.113.5');
    expect(viaForwarded('for="oops, for=203.0.113.6')).toBe('127.0.0.1');
    expect(viaForwarded('garbage;;=, for=203.0.113.7')).toBe('203.0.113.7');
    expect(viaForwarded('for="[2001:db8::9]", for="x,y", for=203.0.113.8')).toBe('203.0.113.8');
  });
});

describe('clientAddress with both Forwarded and X-Forwarded-For', () => {
  const proxies = parseTrustedProxies(['127.0.0.1']);
  const both = (forwarded: string, forwardedFor: string) =>
    clientAddress('127.0.0.1', { forwarded, forwardedFor }, proxies);

  it('goes by X-Forwarded-For, which the common proxies maintain, when it names a client', () => {
    expect(both('for="[2001:db8::1]:4711"', '2001:0db8::1')).toBe('2001:db8::1');
    // nginx appended the real peer to X-Forwarded-For and passed the client's Forwarded on.
    expect(both('for=198.51.100.1', '203.0.113.5')).toBe('203.0.113.5');
    expect(both('for="oops', '198.51.100.1')).toBe('198.51.100.1');
  });

  it('falls back to Forwarded when X-Forwarded-For names nobody', () => {
    expect(both('for=203.0.113.5', 'unknown')).toBe('203.0.113.5');
    expect(both('for=_hidden', 'unknown')).toBe('127.0.0.1');
  });

  it('reads X-Forwarded-For from the right too', () => {
    expect(viaXff('127.0.0.1', 'garbage, 203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(viaXff('127.0.0.1', '203.0.113.5, garbage', proxies)).toBe('127.0.0.1');
  });

  it('reads only the header the proxy maintains when told which (--trusted-proxy-header)', () => {
    // A proxy that writes only Forwarded (RFC 7239) passes the client's own X-Forwarded-For on.
    const forwardedOnly = (forwarded: string, forwardedFor: string) =>
      clientAddress('127.0.0.1', { forwarded, forwardedFor }, proxies, 'forwarded');
    expect(forwardedOnly('for=203.0.113.5', '198.51.100.77')).toBe('203.0.113.5');
    // A Forwarded naming nobody counts against the proxy, never the client's X-Forwarded-For.
    expect(forwardedOnly('for=_hidden', '198.51.100.77')).toBe('127.0.0.1');
    // And the other way round: nginx maintains X-Forwarded-For, the client wrote Forwarded.
    expect(
      clientAddress(
        '127.0.0.1',
        { forwarded: 'for=198.51.100.77', forwardedFor: 'unknown' },
        proxies,
        'x-forwarded-for',
      ),
    ).toBe('127.0.0.1');
  });
});

describe('forwardedForHops', () => {
  it('reads unquoted and quoted IPv4, with or without a port', () => {
    expect(forwardedForHops('for=192.0.2.60')).toEqual(['192.0.2.60']);
    expect(forwardedForHops('for="192.0.2.60"')).toEqual(['192.0.2.60']);
    expect(forwardedForHops('for="192.0.2.43:47011"')).toEqual(['192.0.2.43']);
    expect(forwardedForHops('for="192.0.2.43:_port1"')).toEqual(['192.0.2.43']);
  });

  it('reads bracketed, quoted IPv6 with or without a port, normalised', () => {
    expect(forwardedForHops('for="[2001:db8:cafe::17]:4711"')).toEqual(['2001:db8:cafe::17']);
    expect(forwardedForHops('for="[2001:DB8:0:0::1]"')).toEqual(['2001:db8::1']);
    expect(forwardedForHops('for="[::ffff:192.0.2.7]:80"')).toEqual(['192.0.2.7']);
  });

  it('treats parameter names case-insensitively and keeps only for=', () => {
    expect(forwardedForHops('For="[2001:db8:cafe::17]:4711"')).toEqual(['2001:db8:cafe::17']);
    expect(forwardedForHops('FOR=192.0.2.60;Proto=http;BY=203.0.113.43')).toEqual(['192.0.2.60']);
    expect(forwardedForHops('proto=https; for=192.0.2.60; host="a.example"')).toEqual([
      '192.0.2.60',
    ]);
  });

  it('unescapes quoted pairs and skips empty elements and pairs', () => {
    expect(forwardedForHops('for="192.0.2.\\60";;proto=http')).toEqual(['192.0.2.60']);
    expect(forwardedForHops(', for=192.0.2.60,,for=198.51.100.17 ,')).toEqual([
      '192.0.2.60',
      '198.51.100.17',
    ]);
    expect(forwardedForHops('')).toEqual([]);
  });

  it.each([
    ['an obfuscated node', 'for=_gazonk'],
    ['an obfuscated node in quotes', 'for="_gazonk"'],
    ['unknown', 'for=unknown'],
    ['unknown with a port', 'for="unknown:8080"'],
    ['a host name', 'for=proxy.example'],
    ['an element without for', 'for=192.0.2.60, proto=https'],
  ])('names no address for %s', (_, header) => {
    expect(forwardedForHops(header)).toBeUndefined();
  });

  it.each([
    ['a port outside quotes', 'for=192.0.2.43:47011'],
    ['IPv6 outside quotes', 'for=[2001:db8::1]'],
    ['IPv6 without brackets', 'for="2001:db8::1"'],
    ['IPv4 in brackets', 'for="[192.0.2.43]"'],
    ['a bad port', 'for="192.0.2.43:http"'],
    ['a port too long', 'for="192.0.2.43:123456"'],
    ['an unterminated quote', 'for="192.0.2.43'],
    ['a trailing backslash', 'for="192.0.2.43\\'],
    ['a pair without value', 'for='],
    ['a pair without name', '=192.0.2.43'],
    ['blanks around =', 'for = 192.0.2.43'],
    ['a stray character', 'for=192.0.2.43 x'],
    ['for twice in one element', 'for=192.0.2.43;for=198.51.100.17'],
    ['a bare word', '192.0.2.43'],
  ])('refuses %s', (_, header) => {
    expect(forwardedForHops(header)).toBeUndefined();
  });
});

describe('parseTrustedProxies', () => {
  it('matches addresses and ranges, IPv4-mapped IPv6 as IPv4', () => {
    const proxies = parseTrustedProxies(['::ffff:192.0.2.1', '10.0.0.0/8', '::1']);
    expect(proxies.has('192.0.2.1')).toBe(true);
    expect(proxies.has('10.200.0.1')).toBe(true);
    expect(proxies.has('11.0.0.1')).toBe(false);
    expect(proxies.has('::1')).toBe(true);
    expect(proxies.has('not an address')).toBe(false);
  });

  it.each(['proxy.local', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', '10.0.0.0/x', '1.2.3.4:80'])(
    'rejects %j naming it',
    (value) => {
      expect(() => parseTrustedProxies([value])).toThrow(`Invalid trusted proxy '${value}'`);
    },
  );
});

describe('normaliseAddress', () => {
  it('gives one spelling per address', () => {
    expect(normaliseAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseAddress('2001:0DB8:0:0::1')).toBe('2001:db8::1');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normaliseAddress('example.test')).toBeUndefined();
  });
});
