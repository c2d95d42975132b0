/**
 * The LoadBalancers port as the AWS reconcilers rely on it: the in-memory fake (in `npm test`) and
 * the ELBv2 SDK adapter on moto (in `npm run test:aws`) pass this suite unchanged. Where real
 * ELBv2 and the backends may differ in a way the reconcilers do not depend on (a repeated create
 * returns the existing load balancer or answers DuplicateLoadBalancerName), the suite accepts both.
 */

import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../shared/errors/index.js';
import type { AwsCloud } from '../../shared/ports/aws-cloud.js';

export interface LoadBalancersUnderTest {
  /** One region's ports: `loadBalancers` is under test, `ec2` builds the network and instances it needs. */
  cloud: AwsCloud;
  /** An AMI id RunInstances accepts. */
  imageId: string;
}

const unique = () => Math.random().toString(36).slice(2, 10);
const TAGS = { Name: 'lb', 'sigs.k8s.io/cluster-api-provider-aws/role': 'apiserver', 'capless.io/managed': 'true' } as const;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CloudApiError);
    return error instanceof CloudApiError ? error.code : undefined;
  }
}

export function describeLoadBalancersConformance(name: string, make: () => Promise<LoadBalancersUnderTest>): void {
  describe(`LoadBalancers port conformance: ${name}`, () => {
    async function network(t: LoadBalancersUnderTest) {
      const { ec2 } = t.cloud;
      const zones = (await ec2.describeAvailabilityZones()).slice(0, 2).map((z) => z.name);
      const vpc = await ec2.createVpc({ cidrBlock: '10.1.0.0/16', tags: { Name: `vpc-${unique()}` } });
      const subnets = await Promise.all(
        zones.map((zone, i) => ec2.createSubnet({ vpcId: vpc.id, cidrBlock: `10.1.${i}.0/24`, availabilityZone: zone, tags: { Name: `s-${unique()}` } })),
      );
      const group = await ec2.createSecurityGroup({ vpcId: vpc.id, name: `sg-${unique()}`, description: 'apiserver-lb', tags: { role: 'apiserver-lb' } });
      return { vpcId: vpc.id, zones, subnetIds: subnets.map((s) => s.id), groupId: group.id };
    }

    async function instances(t: LoadBalancersUnderTest, subnetId: string, count: number): Promise<string[]> {
      const launched = await Promise.all(
        Array.from({ length: count }, () =>
          t.cloud.ec2.runInstance({ clientToken: unique(), imageId: t.imageId, instanceType: 't3.micro', subnetId, securityGroupIds: [], userData: '', tags: { Name: unique() } }),
        ),
      );
      return launched.map((i) => i.id);
    }

    it.each([['internet-facing' as const], ['internal' as const]])('creates a %s network load balancer with its tags and finds it by name until it is active', async (scheme) => {
      const t = await make();
      const net = await network(t);
      const lbName = `lb-${unique()}`;
      expect(await t.cloud.loadBalancers.findLoadBalancer(lbName)).toBeUndefined();

      const created = await t.cloud.loadBalancers.createLoadBalancer({ name: lbName, scheme, subnetIds: net.subnetIds, securityGroupIds: [net.groupId], tags: TAGS });
      expect(created).toMatchObject({ name: lbName, scheme, tags: TAGS });
      expect(created.arn).toMatch(/^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:loadbalancer\//);
      expect(created.dnsName).not.toBe('');
      expect(['provisioning', 'active']).toContain(created.state);

      let found = await t.cloud.loadBalancers.findLoadBalancer(lbName);
      for (let look = 0; look < 3 && found?.state !== 'active'; look++) found = await t.cloud.loadBalancers.findLoadBalancer(lbName);
      expect(found).toMatchObject({ arn: created.arn, name: lbName, scheme, dnsName: created.dnsName, state: 'active', tags: TAGS });
      expect([...(found?.availabilityZones ?? [])].sort()).toEqual([...net.zones].sort());
    });

    it('keeps one load balancer per name when it is created again (a retried create)', async () => {
      const t = await make();
      const net = await network(t);
      const lbName = `lb-${unique()}`;
      const request = { name: lbName, scheme: 'internet-facing' as const, subnetIds: net.subnetIds, securityGroupIds: [], tags: TAGS };
      const first = await t.cloud.loadBalancers.createLoadBalancer(request);
      const again = await t.cloud.loadBalancers.createLoadBalancer(request).then(
        (lb) => lb.arn,
        (error: unknown) => (error instanceof CloudApiError ? error.code : String(error)),
      );
      expect([first.arn, 'DuplicateLoadBalancerName']).toContain(again);
      expect((await t.cloud.loadBalancers.findLoadBalancer(lbName))?.arn).toBe(first.arn);
    });

    it('creates a TCP target group once per name, with its tags, and finds it by name', async () => {
      const t = await make();
      const net = await network(t);
      const tgName = `tg-${unique()}`;
      expect(await t.cloud.loadBalancers.findTargetGroup(tgName)).toBeUndefined();
      const created = await t.cloud.loadBalancers.createTargetGroup({ name: tgName, vpcId: net.vpcId, port: 6443, tags: TAGS });
      expect(created).toMatchObject({ name: tgName, port: 6443, tags: TAGS });
      expect(created.arn).toMatch(/:targetgroup\//);
      const again = await t.cloud.loadBalancers.createTargetGroup({ name: tgName, vpcId: net.vpcId, port: 6443, tags: TAGS }).then(
        (tg) => tg.arn,
        (error: unknown) => (error instanceof CloudApiError ? error.code : String(error)),
      );
      expect([created.arn, 'DuplicateTargetGroupName']).toContain(again);
      expect(await t.cloud.loadBalancers.findTargetGroup(tgName)).toEqual(created);
    });

    it('sets the target group attributes that differ, once (a second ensure changes nothing)', async () => {
      const t = await make();
      const net = await network(t);
      const tg = await t.cloud.loadBalancers.createTargetGroup({ name: `tg-${unique()}`, vpcId: net.vpcId, port: 6443, tags: TAGS });
      const wanted = { 'preserve_client_ip.enabled': 'false', 'deregistration_delay.timeout_seconds': '300' };
      // A TCP target group of instances preserves client IPs by default; 300 s is ELBv2's default delay.
      expect(await t.cloud.loadBalancers.ensureTargetGroupAttributes(tg.arn, wanted)).toEqual(['preserve_client_ip.enabled']);
      expect(await t.cloud.loadBalancers.ensureTargetGroupAttributes(tg.arn, wanted)).toEqual([]);
      expect(await t.cloud.loadBalancers.ensureTargetGroupAttributes(tg.arn, { 'deregistration_delay.timeout_seconds': '120' })).toEqual(['deregistration_delay.timeout_seconds']);
      await t.cloud.loadBalancers.deleteTargetGroup(tg.arn);
      expect(await codeOf(t.cloud.loadBalancers.ensureTargetGroupAttributes(tg.arn, wanted))).toBe('TargetGroupNotFound');
    });

    it('registers instance targets once, lists them sorted, and deregisters them (twice is harmless)', async () => {
      const t = await make();
      const net = await network(t);
      const tg = await t.cloud.loadBalancers.createTargetGroup({ name: `tg-${unique()}`, vpcId: net.vpcId, port: 6443, tags: TAGS });
      const ids = await instances(t, net.subnetIds[0] ?? '', 3);
      expect(await t.cloud.loadBalancers.describeTargets(tg.arn)).toEqual([]);
      for (const id of [...ids, ids[0] ?? '']) await t.cloud.loadBalancers.registerTarget(tg.arn, id, 6443);
      expect(await t.cloud.loadBalancers.describeTargets(tg.arn)).toEqual([...ids].sort());

      const [gone = '', ...kept] = ids;
      await t.cloud.loadBalancers.deregisterTarget(tg.arn, gone, 6443);
      await t.cloud.loadBalancers.deregisterTarget(tg.arn, gone, 6443);
      expect(await t.cloud.loadBalancers.describeTargets(tg.arn)).toEqual([...kept].sort());
    });

    it('ensures one listener (twice is harmless); the target group is in use until its load balancer is deleted', async () => {
      const t = await make();
      const net = await network(t);
      const lbName = `lb-${unique()}`;
      const lb = await t.cloud.loadBalancers.createLoadBalancer({ name: lbName, scheme: 'internet-facing', subnetIds: net.subnetIds, securityGroupIds: [], tags: TAGS });
      const tg = await t.cloud.loadBalancers.createTargetGroup({ name: `tg-${unique()}`, vpcId: net.vpcId, port: 6443, tags: TAGS });
      await t.cloud.loadBalancers.ensureListener(lb.arn, 6443, tg.arn);
      await t.cloud.loadBalancers.ensureListener(lb.arn, 6443, tg.arn);
      expect(await codeOf(t.cloud.loadBalancers.deleteTargetGroup(tg.arn))).toBe('ResourceInUse');

      await t.cloud.loadBalancers.deleteLoadBalancer(lb.arn);
      expect(await t.cloud.loadBalancers.findLoadBalancer(lbName)).toBeUndefined();
      await t.cloud.loadBalancers.deleteTargetGroup(tg.arn);
      expect(await t.cloud.loadBalancers.findTargetGroup(tg.name)).toBeUndefined();
    });

    it('deleting what is already gone succeeds; reading the targets of a deleted group is TargetGroupNotFound', async () => {
      const t = await make();
      const net = await network(t);
      const lb = await t.cloud.loadBalancers.createLoadBalancer({ name: `lb-${unique()}`, scheme: 'internal', subnetIds: net.subnetIds, securityGroupIds: [], tags: TAGS });
      const tg = await t.cloud.loadBalancers.createTargetGroup({ name: `tg-${unique()}`, vpcId: net.vpcId, port: 6443, tags: TAGS });
      for (let round = 0; round < 2; round++) {
        await t.cloud.loadBalancers.deleteLoadBalancer(lb.arn);
        await t.cloud.loadBalancers.deleteTargetGroup(tg.arn);
      }
      expect(await codeOf(t.cloud.loadBalancers.describeTargets(tg.arn))).toBe('TargetGroupNotFound');
      expect(await codeOf(t.cloud.loadBalancers.ensureListener(lb.arn, 6443, tg.arn))).toBe('LoadBalancerNotFound');
    });
  });
}
