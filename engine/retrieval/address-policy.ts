import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** True for addresses that are not on the public internet. IPv4-mapped IPv6 addresses are judged by their IPv4 part. */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family === 6) return NON_PUBLIC.check(address, 'ipv6');
  return false;
}

function allowListMatches(entry: string, host: string, address: string): boolean {
  const [net, prefix] = entry.split('/');
  if (prefix !== undefined && net && isIP(net)) {
    const list = new BlockList();
    const family = isIP(net) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(net, Number(prefix), family);
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const candidate = mapped ? mapped[1]! : address;
    return isIP(candidate) === isIP(net) && list.check(candidate, family);
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

/** Local scans (CLI, desktop) may reach the user's own machine and network. */
export const LOCAL_POLICY: AddressPolicy = { allowPrivate: true };

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
