import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Which addresses a scan may connect to. Local scans (CLI, desktop) allow private ones; server mode refuses them unless allow-listed. */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Hosts or CIDR ranges allowed even when private addresses are refused. */
  allowList?: string[];
}

/** Loopback, private, link-local, carrier-grade NAT, unspecified and other non-public ranges (IPv4 and IPv6). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  // Local-use NAT64 (RFC 8215): a translator inside the operator's own network, never reachable from the internet,
  // and its prefix length (hence where the IPv4 part sits) is the operator's choice.
  ['64:ff9b:1::', 48],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that deliver to them: IPv4-compatible (::/96),
 * IPv4-mapped (::ffff:0:0/96), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, the relay's site)
 * and Teredo (2001::/32: its server and its client, whose address is stored inverted). Empty for other addresses.
 */
export function embeddedIPv4(address: string): string[] {
  let parts: number[];
  try {
    parts = ipaddr.IPv6.parse(address).parts;
  } catch {
    return [];
  }
  const v4 = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]).toString();
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const [p0, p1, p2, p3, p4, p5, p6, p7] = parts as [number, number, number, number, number, number, number, number];
  if (zeros(0, 5) && (p5 === 0 || p5 === 0xffff)) return [v4(p6, p7)];
  if (zeros(0, 4) && p4 === 0xffff && p5 === 0) return [v4(p6, p7)];
  if (p0 === 0x64 && p1 === 0xff9b && zeros(2, 6)) return [v4(p6, p7)];
  if (p0 === 0x2002) return [v4(p1, p2)];
  if (p0 === 0x2001 && p1 === 0) return [v4(p2, p3), v4(p6 ^ 0xffff, p7 ^ 0xffff)];
  return [];
}

/**
 * True for addresses that are not on the public internet. An IPv6 address that embeds an IPv4 address (mapped,
 * compatible, SIIT, NAT64, 6to4, Teredo) is judged by that IPv4 address too: a translator delivers to it.
 */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  if (NON_PUBLIC.check(address, 'ipv6')) return true;
  return embeddedIPv4(address).some((v4) => NON_PUBLIC.check(v4, 'ipv4'));
}

function allowListMatches(entry: string, host: string, address: string): boolean {
  const [net, prefix] = entry.split('/');
  if (prefix !== undefined && net && isIP(net)) {
    const list = new BlockList();
    const family = isIP(net) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(net, Number(prefix), family);
    // An allow-listed IPv4 range also covers the IPv6 forms that carry one of its addresses.
    const candidates = isIP(net) === 4 && isIP(address) === 6 ? embeddedIPv4(address) : [address];
    return candidates.length > 0 && candidates.every((candidate) => isIP(candidate) === isIP(net) && list.check(candidate, family));
  }
  return entry.toLowerCase() === host.toLowerCase() || entry === address;
}

/** Why connecting to this host at this address is refused, or null when it is allowed. */
export function addressRefusal(policy: AddressPolicy, host: string, address: string): string | null {
  if (policy.allowPrivate || !isNonPublicAddress(address)) return null;
  if (policy.allowList?.some((entry) => allowListMatches(entry, host, address))) return null;
  return `${host} resolves to ${address}, a private or loopback address; scans from this server may reach only public addresses (ask the administrator to allow-list it)`;
}

/**
 * Where a host name really is: the address (and port) to connect to instead of what DNS says. For test code that
 * calls scan() directly (a stand-in serving a third-party API under its real name); never built from user input.
 */
export type HostResolver = (hostname: string) => { address: string; port: number } | undefined;

type AllLookup = (hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** A lookup that answers one fixed address, in the shape dns.lookup gives with `all: true`. */
function mappedLookup(address: string): AllLookup {
  return (_hostname, _options, callback) => process.nextTick(() => callback(null, [{ address, family: isIP(address) === 6 ? 6 : 4 }]));
}

/**
 * A DNS lookup for sockets that refuses (error code EADDRPOLICY) when any address of the host is refused: the check
 * runs at connect time on the very addresses the socket will use, so DNS rebinding cannot slip past it.
 * Sockets given an IP literal skip lookups, so callers check literals with addressRefusal themselves.
 */
export function policyLookup(policy: AddressPolicy, resolveHost?: HostResolver): LookupFunction {
  return (hostname: string, options: object, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    const mapped = resolveHost?.(hostname);
    const resolve = mapped ? mappedLookup(mapped.address) : dnsLookup;
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      for (const { address } of addresses) {
        const refusal = addressRefusal(policy, hostname, address);
        if (refusal) {
          const error: NodeJS.ErrnoException = new Error(refusal);
          error.code = 'EADDRPOLICY';
          return callback(error, '', 0);
        }
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The policy's verdict on a URL's host (null = allowed), resolving each host once per cache: the gate for
 * requests a headless browser makes (rendering, audits), where the connect-time check of the HTTP client is absent.
 */
export async function urlRefusal(policy: AddressPolicy, url: string, cache: Map<string, string | null>): Promise<string | null> {
  if (policy.allowPrivate) return null;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'invalid URL';
  }
  if (cache.has(host)) return cache.get(host)!;
  let refusal: string | null = null;
  try {
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
    for (const { address } of addresses) {
      refusal = addressRefusal(policy, host, address);
      if (refusal) break;
    }
  } catch {
    refusal = null; // unresolvable hosts fail on their own
  }
  cache.set(host, refusal);
  return refusal;
}
