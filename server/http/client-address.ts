import { BlockList, isIP, SocketAddress } from 'node:net';
import { AppError } from '../platform/errors.ts';

/** The reverse proxies (`--trusted-proxy`) whose `X-Forwarded-For` names the real client. */
export interface TrustedProxies {
  /** True when `address` (already normalised) is one of the proxies or in one of their ranges. */
  has(address: string): boolean;
}

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * An IP literal in the one form the rate limit keys on: IPv4-mapped IPv6 (`::ffff:a.b.c.d`, what a
 * dual-stack socket reports for IPv4 peers) becomes `a.b.c.d`, IPv6 is canonical (lower case,
 * shortest form, no zone). `undefined` when `text` is no IP literal.
 */
export function normaliseAddress(text: string): string | undefined {
  const bare = text.trim().split('%')[0]!;
  const mapped = MAPPED_IPV4.exec(bare);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  const version = isIP(bare);
  if (version === 4) return bare;
  if (version === 6) return new SocketAddress({ address: bare, family: 'ipv6' }).address;
  return undefined;
}

/**
 * Reads `--trusted-proxy` values: IP literals and CIDR ranges (`10.0.0.0/8`, `fd00::/8`). A value
 * that is neither is a `bad_request` naming it.
 */
export function parseTrustedProxies(values: string[]): TrustedProxies {
  const list = new BlockList();
  for (const value of values) {
    const [network = '', prefixText, ...rest] = value.split('/');
    const address = normaliseAddress(network);
    const family = address === undefined ? undefined : isIP(address) === 4 ? 'ipv4' : 'ipv6';
    const maxPrefix = family === 'ipv4' ? 32 : 128;
    const prefix = prefixText === undefined ? undefined : Number(prefixText);
    const validPrefix =
      prefix === undefined || (/^\d{1,3}$/.test(prefixText!) && prefix <= maxPrefix);
    // A mapped IPv6 range is an IPv4 range in disguise; asking for it written as IPv4 keeps
    // prefixes unambiguous.
    const mappedRange = prefix !== undefined && MAPPED_IPV4.test(network.trim());
    if (!address || !family || rest.length > 0 || !validPrefix || mappedRange) {
      throw new AppError(
        'bad_request',
        `Invalid trusted proxy '${value}': use the proxy's IP address as the service sees it, such as 127.0.0.1 or ::1, or a range such as 10.0.0.0/8`,
      );
    }
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return {
    has: (address) => {
      const version = isIP(address);
      return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * Who a request comes from, for the wrong-token limit. The TCP peer, unless it is a trusted proxy:
 * then the right-most `X-Forwarded-For` entry that is not itself a trusted proxy. Proxies append
 * the address they were reached from, so entries to its left were written by the client and may be
 * forged. A missing or malformed header from a proxy leaves the proxy's own address (one shared
 * budget, never a way around it); headers from any other peer are ignored.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies | undefined,
): string {
  const from = (peer && normaliseAddress(peer)) ?? peer ?? '';
  if (!trusted || !forwardedFor || !trusted.has(from)) return from;
  const hops = forwardedFor.split(',').map(forwardedAddress);
  if (hops.some((hop) => hop === undefined)) return from;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i]!)) return hops[i]!;
  }
  // Every hop is a proxy we trust: the farthest one is as close to the client as we can know.
  return hops[0] ?? from;
}

/** One `X-Forwarded-For` entry: a bare address, or `1.2.3.4:port` / `[v6]:port` (some balancers). */
function forwardedAddress(entry: string): string | undefined {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return normaliseAddress(bracketed[1]!);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return normaliseAddress(withPort ? withPort[1]! : text);
}
