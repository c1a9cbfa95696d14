import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (SSRF protection). A target URL is checked when it is registered and again at every
 * delivery, after DNS resolution: every address the host resolves to must be a globally routable unicast address.
 * The delivery then connects to the address it checked (the connection is pinned), so a DNS answer that changes
 * between the check and the connection (rebinding) cannot redirect it.
 */

export type ResolvedAddress = { address: string; family: number };
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type TargetPolicy = {
  /** JORNADA_WEBHOOKS_ALLOW_PRIVATE=1: any address, and plain http:// to the local host (development, tests). */
  allowPrivate: boolean;
  resolve: HostResolver;
};

export const systemResolver: HostResolver = async (hostname) =>
  await dns.promises.lookup(hostname, { all: true, order: 'verbatim' });

/** A target refused by the policy; the message is safe to show to the client. */
export class RefusedTarget extends Error {}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const RESOLVE_TIMEOUT_MILLISECONDS = 5_000;

/**
 * Only `unicast` counts as public. ipaddr.js classifies loopback, private (RFC 1918), linkLocal, carrierGradeNat,
 * multicast, unspecified, broadcast, reserved and the IPv6 special ranges (uniqueLocal, 6to4, teredo, NAT64 …)
 * as something else; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

function describe(address: string): string {
  return ipaddr.isValid(address) ? `${address} (${ipaddr.process(address).range()})` : address;
}

/** The URL's host as net.connect sees it: IPv6 literals without brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The shape rules, with no I/O. Returns the problem, or null. */
export function urlShapeProblem(url: URL, policy: Pick<TargetPolicy, 'allowPrivate'>): string | null {
  const local = policy.allowPrivate && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return 'must be an https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (url.hash !== '') return 'must not contain a fragment';
  return null;
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
      throw new RefusedTarget(`host ${host} could not be resolved`);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new RefusedTarget(`host ${host} could not be resolved`);
  }
  if (!policy.allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      throw new RefusedTarget(
        `${family === 0 ? `resolves to ${describe(refused.address)}` : `is ${describe(refused.address)}`}, which is not a public address`,
      );
    }
  }
  return addresses;
}

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

/** A lookup for http.request that answers with the addresses already checked: the connection is pinned. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const matching = addresses.filter((entry) => wanted === 0 || entry.family === wanted);
    const first = matching[0];
    if (!first) {
      const error = Object.assign(new Error('no checked address of the requested family'), {
        code: 'ENOTFOUND',
      });
      callback(error, '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, matching);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
