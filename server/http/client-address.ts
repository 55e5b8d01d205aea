import { BlockList, isIP, SocketAddress } from 'node:net';
import { AppError } from '../platform/errors.ts';

/** The reverse proxies (`--trusted-proxy`) whose `Forwarded`/`X-Forwarded-For` names the client. */
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

/** The `--trusted-proxy-header` values, for validation and help. */
export const PROXY_HEADERS = ['forwarded', 'x-forwarded-for'] as const;

/**
 * The one forwarding header a trusted proxy maintains (`--trusted-proxy-header`), when the user
 * says which; otherwise both are read, `X-Forwarded-For` first.
 */
export type ProxyHeader = (typeof PROXY_HEADERS)[number];

/** The forwarding headers a request arrived with, as received (repeated fields joined by commas). */
export interface ForwardingHeaders {
  /** The standard `Forwarded` field (RFC 7239). */
  forwarded?: string | undefined;
  /** The de-facto `X-Forwarded-For` field. */
  forwardedFor?: string | undefined;
}

/**
 * Who a request comes from, for the wrong-token limit. The TCP peer, unless it is a trusted proxy:
 * then the right-most forwarded address that is not itself a trusted proxy. Proxies append the
 * address they were reached from, so only the right end of the list is theirs: the list is read
 * from the right and nothing left of the client's address is looked at (a client writing garbage
 * or `unknown` there cannot push its guesses onto the proxy's budget and lock everybody out).
 *
 * `X-Forwarded-For` names the client when it is readable, else the `for=` values of `Forwarded`
 * (RFC 7239): proxies commonly maintain `X-Forwarded-For` (nginx as docs/security.md sets it) and
 * pass a client's `Forwarded` on untouched, so preferring it keeps a made-up one harmless. Behind a
 * proxy that maintains only `Forwarded`, a client's own `X-Forwarded-For` would choose its budget:
 * `only` (`--trusted-proxy-header forwarded`) reads the one header the proxy maintains and ignores the
 * other. When the header names nobody, the proxy's own address counts; headers from any other peer
 * are ignored.
 */
export function clientAddress(
  peer: string | undefined,
  headers: ForwardingHeaders,
  trusted: TrustedProxies | undefined,
  only?: ProxyHeader,
): string {
  const from = (peer && normaliseAddress(peer)) ?? peer ?? '';
  if (!trusted || !trusted.has(from)) return from;
  return (
    (headers.forwardedFor !== undefined && only !== 'forwarded'
      ? rightMostClient(headers.forwardedFor.split(',').map(forwardedAddress), trusted)
      : undefined) ??
    (headers.forwarded !== undefined && only !== 'x-forwarded-for'
      ? rightMostClient(forwardedElementHops(headers.forwarded), trusted)
      : undefined) ??
    from
  );
}

/**
 * The right-most hop that is no trusted proxy, read from the right; `undefined` when an unreadable
 * hop (`undefined`) comes first, or the list is empty.
 */
function rightMostClient(
  hops: (string | undefined)[],
  trusted: TrustedProxies,
): string | undefined {
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === undefined) return undefined;
    if (!trusted.has(hop)) return hop;
  }
  // Every hop is a proxy we trust: the farthest one is as close to the client as we can know.
  return hops[0];
}

/** One `X-Forwarded-For` entry: a bare address, or `1.2.3.4:port` / `[v6]:port` (some balancers). */
function forwardedAddress(entry: string): string | undefined {
  const text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) return normaliseAddress(bracketed[1]!);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  return normaliseAddress(withPort ? withPort[1]! : text);
}

/**
 * The `for=` addresses of a `Forwarded` header (RFC 7239 §4, §5.2, §6), left to right, normalised.
 * `undefined` when the header is malformed or any element's `for` is missing, `unknown`, an
 * obfuscated identifier such as `_hidden`, or no IP literal: then nobody can say which hop is the
 * client. Empty list elements are skipped, as HTTP lists allow.
 */
export function forwardedForHops(header: string): string[] | undefined {
  const hops = forwardedElementHops(header);
  return hops.every((hop) => hop !== undefined) ? hops : undefined;
}

/**
 * The `for=` address of each element of a `Forwarded` header, left to right, each read on its own
 * (`undefined` for an element that is malformed or names no IP address), so that a broken element
 * written by the client on the left leaves the proxies' elements on the right readable.
 */
function forwardedElementHops(header: string): (string | undefined)[] {
  return parseForwarded(header)
    .filter((pairs) => pairs === undefined || pairs.size > 0)
    .map((pairs) => {
      const node = pairs?.get('for');
      return node === undefined ? undefined : nodeAddress(node);
    });
}

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

/**
 * Splits a `Forwarded` value into elements (`,`) of `name=value` pairs (`;`), names lower-cased,
 * values unquoted. An element the grammar does not allow (RFC 7239 §4, with RFC 9110 tokens and
 * quoted strings: a stray character, an unterminated quote, a name given twice) is `undefined`,
 * and reading goes on at the next element. Blanks are tolerated around `,` and `;`, as proxies
 * write them.
 */
function parseForwarded(header: string): (Map<string, string> | undefined)[] {
  let i = 0;
  const skipBlanks = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  const token = () => {
    const start = i;
    while (i < header.length && TCHAR.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  // A broken element: skip to the comma that ends it (outside quoted strings).
  const broken = (): undefined => {
    for (let quoted = false; i < header.length; i++) {
      const c = header[i];
      if (quoted && c === '\\') i++;
      else if (c === '"') quoted = !quoted;
      else if (c === ',' && !quoted) break;
    }
    return undefined;
  };
  const element = (): Map<string, string> | undefined => {
    const pairs = new Map<string, string>();
    for (;;) {
      skipBlanks();
      if (i < header.length && header[i] !== ',' && header[i] !== ';') {
        const name = token().toLowerCase();
        if (!name || header[i] !== '=') return broken();
        i++;
        let value = '';
        if (header[i] === '"') {
          for (i++; header[i] !== '"'; i++) {
            if (header[i] === '\\') i++;
            if (i >= header.length) return undefined;
            value += header[i];
          }
          i++;
        } else {
          value = token();
          if (!value) return broken();
        }
        if (pairs.has(name)) return broken();
        pairs.set(name, value);
        skipBlanks();
      }
      if (i >= header.length || header[i] === ',') return pairs;
      if (header[i] !== ';') return broken();
      i++;
    }
  };
  const elements: (Map<string, string> | undefined)[] = [];
  for (;;) {
    elements.push(element());
    if (i >= header.length) return elements;
    i++; // past the ','
  }
}

// RFC 7239 §6: node = nodename [":" node-port], nodename = IPv4address / "[" IPv6address "]" /
// "unknown" / obfnode, node-port = 1*5DIGIT / obfport.
const NODE = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(?:\d{1,5}|_[A-Za-z0-9._-]+))?$/;

/** The IP address a `for=` node names, without its port; `undefined` for `unknown`, `_obfuscated`. */
function nodeAddress(node: string): string | undefined {
  const match = NODE.exec(node);
  if (!match) return undefined;
  const [, v6, v4] = match;
  if (v6 !== undefined) return isIP(v6) === 6 ? normaliseAddress(v6) : undefined;
  return isIP(v4!) === 4 ? v4 : undefined;
}
