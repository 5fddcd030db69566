import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { reachableAddresses, urlHost } from './reachable.js';

const info = (address: string, family: 'IPv4' | 'IPv6', internal = false, scopeid = 0): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid } : {}) }) as NetworkInterfaceInfo;

const interfaces = {
  lo: [info('127.0.0.1', 'IPv4', true), info('::1', 'IPv6', true)],
  eth0: [info('192.168.1.20', 'IPv4'), info('fe80::1', 'IPv6', false, 2), info('2001:db8::20', 'IPv6')],
  wlan0: [info('10.0.0.7', 'IPv4')],
};

describe('reachableAddresses', () => {
  it('gives loopback, then each non-internal IPv4 address on 0.0.0.0', () => {
    expect(reachableAddresses('0.0.0.0', interfaces)).toEqual(['127.0.0.1', '192.168.1.20', '10.0.0.7']);
  });

  it('adds global IPv6 addresses on ::, never link-local ones', () => {
    expect(reachableAddresses('::', interfaces)).toEqual(['127.0.0.1', '192.168.1.20', '2001:db8::20', '10.0.0.7']);
  });

  it('writes IPv6 hosts in brackets', () => {
    expect([urlHost('2001:db8::20'), urlHost('[::1]'), urlHost('10.0.0.7')]).toEqual(['[2001:db8::20]', '[::1]', '10.0.0.7']);
  });
});
