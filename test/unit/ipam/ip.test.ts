import { describe, expect, it } from 'vitest';
import { formatIp, parseCidr, parseIp, subnetBounds } from '../../../shared/ipam/ip.js';

describe('parseIp and formatIp', () => {
  it.each([
    ['10.0.0.1', 4, '10.0.0.1'],
    ['0.0.0.0', 4, '0.0.0.0'],
    ['255.255.255.255', 4, '255.255.255.255'],
    ['fd00::1', 6, 'fd00::1'],
    ['FD00:0:0:0:0:0:0:1', 6, 'fd00::1'],
    ['::', 6, '::'],
    ['::1', 6, '::1'],
    ['2001:db8:0:0:1:0:0:1', 6, '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', 6, '2001:db8:0:1:1:1:1:1'],
    ['::ffff:10.0.0.1', 6, '::ffff:a00:1'],
  ])('%s is IPv%d, written %s', (text, family, canonical) => {
    const ip = parseIp(text);
    expect(ip?.family).toBe(family);
    expect(ip && formatIp(ip)).toBe(canonical);
  });

  it.each(['', '10.0.0', '10.0.0.256', '10.0.0.01', '1.2.3.4.5', 'fd00:::1', '1:2:3:4:5:6:7:8:9', 'fd00::1::2', 'g::1', '10.0.0.1 ', 'fe80::1%eth0'])(
    '%j is not an address',
    (text) => {
      expect(parseIp(text)).toBeUndefined();
    },
  );
});

describe('parseCidr and subnetBounds', () => {
  it.each([
    ['10.0.0.17/28', '10.0.0.16', '10.0.0.31'],
    ['10.0.0.0/32', '10.0.0.0', '10.0.0.0'],
    ['fd00::5/126', 'fd00::4', 'fd00::7'],
  ])('%s spans %s to %s', (text, first, last) => {
    const cidr = parseCidr(text);
    expect(cidr).toBeDefined();
    if (!cidr) return;
    const bounds = subnetBounds(cidr.ip, cidr.prefix);
    expect(formatIp({ family: cidr.ip.family, value: bounds.first })).toBe(first);
    expect(formatIp({ family: cidr.ip.family, value: bounds.last })).toBe(last);
  });

  it.each(['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/08', 'fd00::/129', '10.0.0/24'])('%j is not a CIDR', (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
});
