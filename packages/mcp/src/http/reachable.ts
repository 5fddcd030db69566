import { networkInterfaces } from 'node:os';
import type { NetworkInterfaceInfo } from 'node:os';

/**
 * Where clients reach an endpoint bound to every address (`0.0.0.0`, `::`): the loopback address and
 * each address of this machine's network interfaces. No client can use `http://0.0.0.0:…`, so these
 * are what the start-up notice prints and, unless `[transport] allowed_hosts` says otherwise, the Host
 * names accepted. An IP literal is safe to accept: a DNS-rebinding page sends its own domain name.
 */

/** An address as a URL's host: IPv6 in brackets (as a Host header and `URL.hostname` write it). */
export const urlHost = (address: string): string => (address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);

/**
 * `127.0.0.1`, then each non-internal address: IPv4, and IPv6 too on an IPv6 bind (Node's `::` takes
 * both). Link-local IPv6 addresses are left out: they need a zone (`%eth0`) that URLs cannot carry.
 */
export const reachableAddresses = (bindHost: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] => {
  const ipv6 = bindHost.includes(':');
  const addresses = Object.values(interfaces)
    .flatMap((infos) => infos ?? [])
    .filter((info) => !info.internal && (info.family === 'IPv4' || (ipv6 && info.scopeid === 0)))
    .map((info) => info.address);
  return [...new Set(['127.0.0.1', ...addresses])];
};
