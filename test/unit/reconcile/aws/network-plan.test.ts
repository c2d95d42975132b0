import { describe, expect, it } from 'vitest';
import { planNetwork, splitCidr } from '../../../../functions/reconcile/infrastructure/aws/cluster/network-plan.js';
import { ingressRules, missingRules } from '../../../../functions/reconcile/infrastructure/aws/cluster/security-group-plan.js';

describe('splitCidr', () => {
  it.each([
    ['10.0.0.0/16', 4, ['10.0.0.0/18', '10.0.64.0/18', '10.0.128.0/18', '10.0.192.0/18']],
    ['10.0.0.0/18', 3, ['10.0.0.0/20', '10.0.16.0/20', '10.0.32.0/20']],
    ['10.0.0.0/16', 2, ['10.0.0.0/17', '10.0.128.0/17']],
    ['192.168.7.9/24', 1, ['192.168.7.0/24']],
  ])('%s in %i', (cidr, count, expected) => {
    expect(splitCidr(cidr, count)).toEqual(expected);
  });

  it.each([['10.0.0.0/27', 4], ['not-a-cidr', 2]])('refuses %s in %i', (cidr, count) => {
    expect(() => splitCidr(cidr, count)).toThrow();
  });
});

describe('planNetwork (CAPA defaults: 10.0.0.0/16, 3 zones)', () => {
  const plan = planNetwork({ cluster: 'c1', vpcCidr: '10.0.0.0/16', zones: ['us-east-1d', 'us-east-1b', 'us-east-1a', 'us-east-1c'], azLimit: 3 });

  it.each([
    ['c1-subnet-public-us-east-1a', '10.0.0.0/20', true],
    ['c1-subnet-public-us-east-1b', '10.0.16.0/20', true],
    ['c1-subnet-public-us-east-1c', '10.0.32.0/20', true],
    ['c1-subnet-private-us-east-1a', '10.0.64.0/18', false],
    ['c1-subnet-private-us-east-1b', '10.0.128.0/18', false],
    ['c1-subnet-private-us-east-1c', '10.0.192.0/18', false],
  ])('%s is %s (public %s)', (name, cidr, isPublic) => {
    expect(plan.subnets.find((s) => s.name === name)).toMatchObject({ cidrBlock: cidr, isPublic });
  });

  it('uses the first zones in name order, up to the limit', () => {
    expect([...new Set(plan.subnets.map((s) => s.availabilityZone))]).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
  });

  it('tags subnets as CAPA does, with the load-balancer role per visibility', () => {
    expect(plan.subnets.find((s) => s.isPublic)?.tags).toEqual({
      Name: 'c1-subnet-public-us-east-1a',
      'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned',
      'sigs.k8s.io/cluster-api-provider-aws/role': 'public',
      'kubernetes.io/cluster/c1': 'owned',
      'kubernetes.io/role/elb': '1',
      'capless.io/managed': 'true',
    });
    expect(plan.subnets.find((s) => !s.isPublic)?.tags).toMatchObject({ 'kubernetes.io/role/internal-elb': '1', 'sigs.k8s.io/cluster-api-provider-aws/role': 'private' });
  });

  it('plans one NAT gateway per zone in its public subnet, and one route table per subnet', () => {
    expect(plan.natGateways.map((n) => [n.name, n.subnetName])).toEqual([
      ['c1-nat-us-east-1a', 'c1-subnet-public-us-east-1a'],
      ['c1-nat-us-east-1b', 'c1-subnet-public-us-east-1b'],
      ['c1-nat-us-east-1c', 'c1-subnet-public-us-east-1c'],
    ]);
    expect(plan.routeTables).toHaveLength(6);
    expect(plan.vpc).toMatchObject({ name: 'c1-vpc', cidrBlock: '10.0.0.0/16' });
    expect(plan.internetGateway.name).toBe('c1-igw');
  });
});

describe('security group rules', () => {
  const ids = { 'apiserver-lb': 'sg-a', lb: 'sg-l', controlplane: 'sg-c', node: 'sg-n' } as const;

  it.each([
    ['controlplane', 6443, ['sg-a', 'sg-c', 'sg-n']],
    ['controlplane', 2379, ['sg-c']],
    ['node', 10250, ['sg-c', 'sg-n']],
  ] as const)('%s allows port %i from %j', (role, port, sources) => {
    expect(ingressRules(role, ids, '10.0.0.0/16').find((r) => r.fromPort === port)?.sourceSecurityGroupIds).toEqual(sources);
  });

  it('adds only the rules EC2 does not report yet, whatever the ports EC2 reports for IP-in-IP', () => {
    const wanted = ingressRules('node', ids, '10.0.0.0/16');
    const existing = [
      { protocol: 'tcp', fromPort: 30000, toPort: 32767, cidrBlocks: ['0.0.0.0/0'] },
      { protocol: '4', fromPort: -1, toPort: -1, sourceSecurityGroupIds: ['sg-c', 'sg-n'] },
    ];
    expect(missingRules(wanted, existing).map((r) => [r.protocol, r.fromPort, r.sourceSecurityGroupIds?.[0]])).toEqual([
      ['tcp', 10250, 'sg-c'],
      ['tcp', 10250, 'sg-n'],
      ['tcp', 179, 'sg-c'],
      ['tcp', 179, 'sg-n'],
    ]);
  });
});
