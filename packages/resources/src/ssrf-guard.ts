import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { PromptyardError } from '@promptyard/core';

/**
 * Which addresses a user-supplied URL may reach. Checked when the socket connects (a `lookup` that
 * validates every resolved address), so DNS rebinding between a check and the connect cannot slip
 * through; literal IPs, which skip `lookup`, are checked before connecting.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

const deniedNames = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|instance-data)\.?$/i;

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` → `127.0.0.1`. */
const embeddedIpv4 = (address: string): string | undefined => {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
};

export interface AddressPolicy {
  /** Hosts (names or IPs) and CIDRs exempt from the guard. */
  readonly allow: readonly string[];
}

export interface AddressCheck {
  isAllowedHost(hostname: string): boolean;
  /** Undefined when the address may be reached; else the reason class. */
  refusal(address: string): string | undefined;
}

export const createAddressCheck = (policy: AddressPolicy): AddressCheck => {
  const allowedNets = new BlockList();
  const allowedHosts = new Set<string>();
  for (const entry of policy.allow) {
    const [network, prefix] = entry.split('/');
    const family = isIP(network ?? '');
    if (prefix !== undefined && family !== 0) allowedNets.addSubnet(network as string, Number(prefix), family === 6 ? 'ipv6' : 'ipv4');
    else if (family !== 0) allowedNets.addAddress(entry, family === 6 ? 'ipv6' : 'ipv4');
    else allowedHosts.add(entry.toLowerCase().replace(/\.$/, ''));
  }
  const refusal = (address: string): string | undefined => {
    const bare = address.replace(/^\[|\]$/g, '');
    const family = isIP(bare);
    if (family === 0) return 'not an IP address';
    const mapped = family === 6 ? embeddedIpv4(bare.toLowerCase()) : undefined;
    const [checked, type] = mapped === undefined ? ([bare, family === 6 ? 'ipv6' : 'ipv4'] as const) : ([mapped, 'ipv4'] as const);
    if (allowedNets.check(checked, type) || allowedNets.check(bare, family === 6 ? 'ipv6' : 'ipv4')) return undefined;
    return blocked.check(checked, type) ? 'a private, loopback, link-local or reserved address' : undefined;
  };
  return {
    isAllowedHost: (hostname) =>
      allowedHosts.has(
        hostname
          .toLowerCase()
          .replace(/^\[|\]$/g, '')
          .replace(/\.$/, ''),
      ),
    refusal,
  };
};

export const refused = (url: string, reason: string): PromptyardError =>
  new PromptyardError(
    'INVALID_ARGUMENT',
    `Refused to fetch ${url}: it points to ${reason}. Only public http(s) addresses are fetched; allow a host or CIDR with [resources.url] allow or PROMPTYARD_URL_ALLOW.`,
    {
      data: { url },
    },
  );

/** Checks a URL before connecting: scheme, credentials, denied names and literal IPs. */
export const checkUrl = (raw: string, check: AddressCheck): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PromptyardError('INVALID_ARGUMENT', `"${raw}" is not a URL: write url:https://example.com/page.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(raw, `the ${url.protocol} scheme (only http and https are fetched)`);
  if (url.username !== '' || url.password !== '') throw refused(raw, 'a URL with credentials');
  if (check.isAllowedHost(url.hostname)) return url;
  if (deniedNames.test(url.hostname)) throw refused(raw, 'a local or metadata host name');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const reason = check.refusal(host);
    if (reason !== undefined) throw refused(raw, reason);
  }
  return url;
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request: resolves every address and refuses the connection if any is not public. */
export const guardedLookup =
  (check: AddressCheck, hostname: string) =>
  (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!check.isAllowedHost(hostname)) {
        for (const { address } of addresses) {
          const reason = check.refusal(address);
          if (reason !== undefined) return callback(Object.assign(new Error(`${host} resolves to ${reason}`), { code: 'ESSRF' }), []);
        }
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
