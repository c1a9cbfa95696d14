import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { HostResolver, ResolvedAddress, TargetPolicy } from '../../platform/ports.ts';

export type { HostResolver, ResolvedAddress, TargetPolicy } from '../../platform/ports.ts';

/**
 * Where a webhook may be sent (SSRF protection). A target URL is checked when it is registered and again for every
 * connection a delivery opens, after DNS resolution: every address the host resolves to must be a globally
 * routable unicast address. The connection then goes to the address it checked (it is pinned: sender.ts), so a
 * DNS answer that changes between the check and the connection (rebinding) cannot redirect it, and a kept-alive
 * connection stays with the address checked when it was opened.
 */

export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443];

export const systemResolver: HostResolver = async (hostname) =>
  await dns.promises.lookup(hostname, { all: true, order: 'verbatim' });

/** A target refused by the policy; the message is safe to show to the client. */
export class RefusedTarget extends Error {}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const RESOLVE_TIMEOUT_MILLISECONDS = 5_000;

/**
 * IPv6 ranges that carry or reach an IPv4 address (or are otherwise not a host on the public internet), refused
 * whatever ipaddr.js calls them: it calls the deprecated IPv4-compatible ::/96 (`[::127.0.0.1]`,
 * `[::7f00:1]`) plain unicast, and a connection to one reaches the embedded IPv4 address on some stacks.
 */
const REFUSED_IPV6: Array<[string, string]> = [
  ['::/96', 'ipv4Compatible'], // deprecated; :: and ::1 included
  ['::ffff:0:0/96', 'ipv4Mapped'], // judged below as the IPv4 address it carries
  ['::ffff:0:0:0/96', 'ipv4Translated'], // SIIT
  ['64:ff9b::/96', 'nat64'], // well-known prefix
  ['64:ff9b:1::/48', 'nat64'], // local use
  ['100::/64', 'discard'],
  ['2001::/32', 'teredo'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['fc00::/7', 'uniqueLocal'],
  ['fe80::/10', 'linkLocal'],
  ['fec0::/10', 'siteLocal'], // deprecated
  ['ff00::/8', 'multicast'],
];
const REFUSED_IPV6_RANGES = REFUSED_IPV6.map(
  ([cidr, name]) => [ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number], name] as const,
);
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Only a globally routable unicast address counts as public. IPv4: ipaddr.js's `unicast` (it classifies
 * loopback, private (RFC 1918), linkLocal, carrierGradeNat, multicast, unspecified, broadcast and reserved as
 * something else). IPv6: an IPv4-mapped address is judged as the IPv4 address it carries; any other must be in
 * 2000::/3, outside every range that embeds IPv4 or is special (REFUSED_IPV6), and `unicast` for ipaddr.js.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  if (!v6.match(GLOBAL_UNICAST_IPV6)) return false;
  if (REFUSED_IPV6_RANGES.some(([range]) => v6.match(range))) return false;
  return v6.range() === 'unicast';
}

/** An address with the name of its range, as the refusal message shows it. */
function describe(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  let range: string = parsed.range();
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const special = REFUSED_IPV6_RANGES.find(([cidr]) => v6.match(cidr));
    if (range === 'unicast' && special) range = special[1];
    else if (range === 'unicast' && !v6.match(GLOBAL_UNICAST_IPV6)) range = 'notGlobalUnicast';
  }
  return `${address} (${range})`;
}

/** The URL's host as net.connect sees it: IPv6 literals without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The shape rules, with no I/O. Returns the problem, or null. */
export function urlShapeProblem(
  url: URL,
  policy: Pick<TargetPolicy, 'allowPrivate' | 'allowedPorts'>,
): string | null {
  const local = policy.allowPrivate && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return 'must be an https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '') return 'must not contain a fragment';
  return portProblem(url, policy);
}

/** The port rule alone: checked at registration and again at every attempt (the allowed ports may narrow). */
export function portProblem(
  url: URL,
  policy: Pick<TargetPolicy, 'allowPrivate' | 'allowedPorts'>,
): string | null {
  const ports = policy.allowedPorts ?? DEFAULT_WEBHOOK_PORTS;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (policy.allowPrivate || ports.includes(port)) return null;
  return `must use ${ports.length === 1 ? 'port' : 'one of the ports'} ${ports.join(', ')}`;
}

/**
 * The addresses to connect to for the URL, all of them checked; throws RefusedTarget when the host does not
 * resolve or any address is not public (unless the policy allows private targets).
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const host = hostOf(url);
  const family = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        policy.resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MILLISECONDS);
        }),
      ]);
    } catch {
      throw new RefusedTarget(unresolvedOrPrivate(host));
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new RefusedTarget(unresolvedOrPrivate(host));
  }
  if (!policy.allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      // A host name gets the one answer an unresolvable one gets: telling them apart would let a client map the
      // internal names and addresses the service's resolver knows (issue 35). An address literal is the
      // client's own, so its kind is said.
      throw new RefusedTarget(
        family === 0
          ? unresolvedOrPrivate(host)
          : `is ${describe(refused.address)}, which is not a public address`,
      );
    }
  }
  return addresses;
}

const unresolvedOrPrivate = (host: string) =>
  `host ${host} does not resolve to public addresses only (or does not resolve)`;

/** Registration check: the shape, then the addresses. Returns the problem to report on `url`, or null. */
export async function targetProblem(text: string, policy: TargetPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https:// URL';
  }
  const shape = urlShapeProblem(url, policy);
  if (shape !== null) return shape;
  if (policy.allowPrivate) return null;
  try {
    await resolveTarget(url, policy);
    return null;
  } catch (error) {
    if (error instanceof RefusedTarget) return error.message;
    throw error;
  }
}
