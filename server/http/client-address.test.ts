import { describe, expect, it } from 'vitest';
import { clientAddress, normaliseAddress, parseTrustedProxies } from './client-address.ts';

// Proxies append the address they were reached from, so only the right end of the list is theirs
// (RFC 7239 §4 and §8.1, https://www.rfc-editor.org/rfc/rfc7239, on X-Forwarded-For's successor).
describe('clientAddress', () => {
  const proxies = parseTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);

  it('takes the right-most forwarded address that is not a trusted proxy', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(clientAddress('127.0.0.1', '1.2.3.4, 203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.5, 10.1.2.3', proxies)).toBe('203.0.113.5');
    expect(clientAddress('fd00::7', '2001:DB8:0::1', proxies)).toBe('2001:db8::1');
    expect(clientAddress('127.0.0.1', '203.0.113.5:4711, [2001:db8::2]:443', proxies)).toBe(
      '2001:db8::2',
    );
  });

  it("keeps the peer's address when the peer is no trusted proxy or the header is unusable", () => {
    expect(clientAddress('192.0.2.9', '203.0.113.5', proxies)).toBe('192.0.2.9');
    expect(clientAddress('::ffff:192.0.2.9', '203.0.113.5', proxies)).toBe('192.0.2.9');
    expect(clientAddress('127.0.0.1', '203.0.113.5', undefined)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', 'unknown', proxies)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.5,, 10.0.0.1', proxies)).toBe('127.0.0.1');
  });

  it('falls back to the farthest hop when every hop is a trusted proxy', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.2, 10.0.0.1', proxies)).toBe('10.0.0.2');
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
