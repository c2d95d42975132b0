import { describe, expect, it } from 'vitest';
import { formatIp } from '../../../shared/ipam/ip.js';
import { size } from '../../../shared/ipam/ip-ranges.js';
import { analysePool, type PoolSpec } from '../../../shared/ipam/pool-spec.js';

function allocatable(spec: PoolSpec): string[] {
  const analysis = analysePool(spec);
  if (!analysis.ok) throw new Error(JSON.stringify(analysis.problems));
  return analysis.set.ranges.map((r) => {
    const first = formatIp({ family: analysis.set.family, value: r.first });
    return r.first === r.last ? first : `${first}-${formatIp({ family: analysis.set.family, value: r.last })}`;
  });
}

describe('analysePool: the allocatable set', () => {
  it.each<[string, PoolSpec, string[]]>([
    [
      'the upstream sample (excluded range reaching past the subnet)',
      { addresses: ['10.0.0.2-10.0.0.254'], prefix: 24, gateway: '10.0.0.1', excludedAddresses: ['10.0.0.3-10.0.1.6', '10.0.0.10', '10.0.0.192/26'] },
      ['10.0.0.2'],
    ],
    ['a CIDR loses network, broadcast and gateway', { addresses: ['10.0.0.0/29'], prefix: 29, gateway: '10.0.0.1' }, ['10.0.0.2-10.0.0.6']],
    ['reserved addresses kept on request', { addresses: ['10.0.0.0/30'], prefix: 30, allocateReservedIPAddresses: true }, ['10.0.0.0-10.0.0.3']],
    ['single IPs and ranges merge', { addresses: ['10.0.0.5', '10.0.0.6-10.0.0.8', '10.0.0.20'], prefix: 24 }, ['10.0.0.5-10.0.0.8', '10.0.0.20']],
    ['IPv6 loses the anycast address', { addresses: ['fd00::/126'], prefix: 126 }, ['fd00::1-fd00::3']],
    ['a /31 keeps both addresses', { addresses: ['10.0.0.0/31'], prefix: 31 }, ['10.0.0.0-10.0.0.1']],
  ])('%s', (_name, spec, expected) => {
    expect(allocatable(spec)).toEqual(expected);
  });

  it('counts a /16 without listing it', () => {
    const analysis = analysePool({ addresses: ['10.1.0.0/16'], prefix: 16 });
    expect(analysis.ok && size(analysis.set)).toBe(65534n);
  });
});

describe('analysePool: what the pool webhook refuses', () => {
  it.each<[string, PoolSpec, string, RegExp]>([
    ['no addresses', { addresses: [], prefix: 24 }, 'addresses', /required/],
    ['a malformed address', { addresses: ['10.0.0.300'], prefix: 24 }, 'addresses[0]', /not a valid IP address/],
    ['a malformed range', { addresses: ['10.0.0.9-10.0.0.2'], prefix: 24 }, 'addresses[0]', /ends before it starts/],
    ['a range across families', { addresses: ['10.0.0.1-fd00::1'], prefix: 24 }, 'addresses[0]', /mixes IPv4 and IPv6/],
    ['a malformed CIDR', { addresses: ['10.0.0.0/40'], prefix: 24 }, 'addresses[0]', /not a valid CIDR/],
    ['mixed families', { addresses: ['10.0.0.1', 'fd00::1'], prefix: 24 }, 'addresses[1]', /must be IPv4/],
    ['an excluded address of the other family', { addresses: ['10.0.0.1'], excludedAddresses: ['fd00::1'], prefix: 24 }, 'excludedAddresses[0]', /must be IPv4/],
    ['a prefix too long for IPv4', { addresses: ['10.0.0.1'], prefix: 64 }, 'prefix', /at most 32/],
    ['addresses outside the prefix', { addresses: ['10.0.0.1', '10.0.1.1'], prefix: 24 }, 'addresses[1]', /inside the pool's subnet 10.0.0.0\/24/],
    ['a gateway outside the prefix', { addresses: ['10.0.0.0/24'], prefix: 24, gateway: '10.0.1.1' }, 'gateway', /inside the pool's subnet/],
    ['a malformed gateway', { addresses: ['10.0.0.0/24'], prefix: 24, gateway: 'router' }, 'gateway', /not a valid IP address/],
    ['overlapping entries', { addresses: ['10.0.0.0/28', '10.0.0.10-10.0.0.20'], prefix: 24 }, 'addresses[1]', /overlaps addresses\[0\]/],
  ])('%s', (_name, spec, field, detail) => {
    const analysis = analysePool(spec);
    expect(analysis.ok).toBe(false);
    if (analysis.ok) return;
    expect(analysis.problems).toContainEqual(expect.objectContaining({ field, detail: expect.stringMatching(detail) }));
  });
});
