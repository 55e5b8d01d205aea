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

/** The forwarding headers a request arrived with, as received (repeated fields joined by commas). */
export interface ForwardingHeaders {
  /** The standard `Forwarded` field (RFC 7239). */
  forwarded?: string | undefined;
  /** The de-facto `X-Forwarded-For` field. */
  forwardedFor?: string | undefined;
}

/**
 * Who a request comes from, for the wrong-token limit. The TCP peer, unless it is a trusted proxy:
 * then the right-most forwarded address that is not itself a trusted proxy, read from `Forwarded`
 * (its `for=` values) or `X-Forwarded-For`. Proxies append the address they were reached from, so
 * entries to its left were written by the client and may be forged. A missing or malformed header,
 * or a hop named `unknown` or obfuscated, leaves the proxy's own address (one shared budget, never
 * a way around it); headers from any other peer are ignored.
 *
 * When both headers are present they must name the same client, else the proxy's address counts.
 * Neither can win outright: a proxy usually maintains only one of them and passes the other on
 * from the client untouched (nginx's `$proxy_add_x_forwarded_for` leaves `Forwarded` alone), so
 * whichever header we preferred, a client could write it and pick a fresh budget per request.
 */
export function clientAddress(
  peer: string | undefined,
  headers: ForwardingHeaders,
  trusted: TrustedProxies | undefined,
): string {
  const from = (peer && normaliseAddress(peer)) ?? peer ?? '';
  if (!trusted || !trusted.has(from)) return from;
  const picks: (string | undefined)[] = [];
  if (headers.forwarded) picks.push(rightMostClient(forwardedForHops(headers.forwarded), trusted));
  if (headers.forwardedFor) {
    picks.push(rightMostClient(xForwardedForHops(headers.forwardedFor), trusted));
  }
  const [first, ...others] = picks;
  if (first === undefined || others.some((pick) => pick !== first)) return from;
  return first;
}

/** The right-most hop that is no trusted proxy; `undefined` for an unusable or empty list. */
function rightMostClient(hops: string[] | undefined, trusted: TrustedProxies): string | undefined {
  if (!hops) return undefined;
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i]!)) return hops[i]!;
  }
  // Every hop is a proxy we trust: the farthest one is as close to the client as we can know.
  return hops[0];
}

/** The addresses in `X-Forwarded-For`, left to right; `undefined` when any entry is no address. */
function xForwardedForHops(header: string): string[] | undefined {
  const hops = header.split(',').map(forwardedAddress);
  return hops.every((hop) => hop !== undefined) ? hops : undefined;
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
  const elements = parseForwarded(header);
  if (!elements) return undefined;
  const hops: string[] = [];
  for (const pairs of elements) {
    if (pairs.size === 0) continue;
    const node = pairs.get('for');
    const address = node === undefined ? undefined : nodeAddress(node);
    if (address === undefined) return undefined;
    hops.push(address);
  }
  return hops;
}

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

/**
 * Splits a `Forwarded` value into elements (`,`) of `name=value` pairs (`;`), names lower-cased,
 * values unquoted. `undefined` on anything the grammar does not allow (RFC 7239 §4, with RFC 9110
 * tokens and quoted strings): a stray character, an unterminated quote, a name given twice in one
 * element. Blanks are tolerated around `,` and `;`, as proxies write them.
 */
function parseForwarded(header: string): Map<string, string>[] | undefined {
  const elements: Map<string, string>[] = [];
  let pairs = new Map<string, string>();
  let i = 0;
  const skipBlanks = () => {
    while (header[i] === ' ' || header[i] === '\t') i++;
  };
  const token = () => {
    const start = i;
    while (i < header.length && TCHAR.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  for (;;) {
    skipBlanks();
    if (i < header.length && header[i] !== ',' && header[i] !== ';') {
      const name = token().toLowerCase();
      if (!name || header[i] !== '=') return undefined;
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
        if (!value) return undefined;
      }
      if (pairs.has(name)) return undefined;
      pairs.set(name, value);
      skipBlanks();
    }
    if (i >= header.length) {
      elements.push(pairs);
      return elements;
    }
    const separator = header[i++];
    if (separator === ',') {
      elements.push(pairs);
      pairs = new Map();
    } else if (separator !== ';') return undefined;
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
