/**
 * The AWS provider's ports (EC2, user-data secrets) as the reconcilers rely on them: the in-memory
 * fakes and the SDK adapters on moto pass this suite unchanged. Where EC2 and moto differ (moto
 * ignores ClientToken), `capabilities` says so and the case is skipped with the reason.
 */

import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../shared/errors/index.js';
import type { AwsCloud } from '../../shared/ports/aws-cloud.js';
import type { Instance } from '../../shared/ports/ec2.js';

export interface AwsCloudUnderTest {
  cloud: AwsCloud;
  region: string;
  /** Real EC2 returns the first instance for a repeated ClientToken; moto launches another. */
  idempotentClientToken: boolean;
  /** An AMI id RunInstances accepts. */
  imageId: string;
}

const unique = () => Math.random().toString(36).slice(2, 10);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CloudApiError);
    return error instanceof CloudApiError ? error.code : undefined;
  }
}

export function describeAwsCloudConformance(name: string, make: () => Promise<AwsCloudUnderTest>): void {
  describe(`AWS cloud ports conformance: ${name}`, () => {
    async function network(t: AwsCloudUnderTest) {
      const { ec2 } = t.cloud;
      const [zone] = await ec2.describeAvailabilityZones();
      const vpc = await ec2.createVpc({ cidrBlock: '10.0.0.0/16', tags: { Name: `vpc-${unique()}` } });
      const subnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.0.1.0/24', availabilityZone: zone?.name ?? '', tags: { Name: `s-${unique()}` } });
      const group = await ec2.createSecurityGroup({ vpcId: vpc.id, name: `sg-${unique()}`, description: 'test', tags: { role: 'node' } });
      return { vpc, subnet, group, zone: zone?.name ?? '' };
    }

    async function launch(t: AwsCloudUnderTest, subnetId: string, groupId: string, tags: Record<string, string>, clientToken = unique()): Promise<Instance> {
      return t.cloud.ec2.runInstance({
        clientToken,
        imageId: t.imageId,
        instanceType: 't3.micro',
        subnetId,
        securityGroupIds: [groupId],
        userData: Buffer.from('#cloud-config\n').toString('base64'),
        tags,
      });
    }

    it('launches an instance with its tags, finds it by id and by tag filters, and keeps it listed once terminated', async () => {
      const t = await make();
      const { subnet, group, zone } = await network(t);
      const name = `m-${unique()}`;
      const launched = await launch(t, subnet.id, group.id, { Name: name, role: 'node' });
      expect(launched.id).toMatch(/^i-[0-9a-f]+$/);
      expect(launched.tags).toMatchObject({ Name: name, role: 'node' });

      const [byId] = await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      expect(byId).toMatchObject({ id: launched.id, availabilityZone: zone, subnetId: subnet.id, securityGroupIds: [group.id] });
      expect(['pending', 'running']).toContain(byId?.state);

      const byTags = await t.cloud.ec2.describeInstances({
        filters: [
          { name: 'tag:Name', values: [name] },
          { name: 'instance-state-name', values: ['pending', 'running'] },
        ],
      });
      expect(byTags.map((i) => i.id)).toEqual([launched.id]);

      await t.cloud.ec2.terminateInstances([launched.id]);
      await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      const [after] = await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      expect(after?.state).toBe('terminated');
      const live = await t.cloud.ec2.describeInstances({ filters: [{ name: 'tag:Name', values: [name] }, { name: 'instance-state-name', values: ['pending', 'running'] }] });
      expect(live).toEqual([]);
    });

    it('answers an unknown instance id with InvalidInstanceID.NotFound', async () => {
      const t = await make();
      expect(await codeOf(t.cloud.ec2.describeInstances({ ids: ['i-0123456789abcdef0'] }))).toMatch(/^InvalidInstanceID\.(NotFound|Malformed)$/);
    });

    it('returns the first instance for a repeated ClientToken (EC2 idempotency)', async (context) => {
      const t = await make();
      if (!t.idempotentClientToken) {
        context.skip('this backend ignores ClientToken (moto): the reconciler proves no duplicate by its tag lookup instead');
        return;
      }
      const { subnet, group } = await network(t);
      const token = unique();
      const first = await launch(t, subnet.id, group.id, { Name: 'dup' }, token);
      const second = await launch(t, subnet.id, group.id, { Name: 'dup' }, token);
      expect(second.id).toBe(first.id);
    });

    it('builds a routed network and refuses to delete a VPC that still has dependencies', async () => {
      const t = await make();
      const { ec2 } = t.cloud;
      const { vpc, subnet, group } = await network(t);
      await ec2.enableVpcDns(vpc.id);
      await ec2.setMapPublicIpOnLaunch(subnet.id);
      const igw = await ec2.createInternetGateway({ tags: { Name: 'igw' } });
      await ec2.attachInternetGateway(igw.id, vpc.id);
      const eip = await ec2.allocateAddress({ tags: { Name: 'eip' } });
      const nat = await ec2.createNatGateway({ subnetId: subnet.id, allocationId: eip.allocationId, clientToken: unique(), tags: { Name: 'nat' } });
      const table = await ec2.createRouteTable({ vpcId: vpc.id, tags: { Name: 'rt' } });
      await ec2.createRoute(table.id, { destinationCidrBlock: '0.0.0.0/0', gatewayId: igw.id });
      const association = await ec2.associateRouteTable(table.id, subnet.id);
      await ec2.authorizeIngress(group.id, [{ protocol: 'tcp', fromPort: 6443, toPort: 6443, cidrBlocks: ['0.0.0.0/0'] }]);

      expect((await ec2.describeSubnets({ filters: [{ name: 'vpc-id', values: [vpc.id] }] })).map((s) => s.mapPublicIpOnLaunch)).toEqual([true]);
      expect((await ec2.describeInternetGateways({ filters: [{ name: 'attachment.vpc-id', values: [vpc.id] }] })).map((g) => g.id)).toEqual([igw.id]);
      expect((await ec2.describeNatGateways({ filters: [{ name: 'subnet-id', values: [subnet.id] }] })).map((n) => n.id)).toEqual([nat.id]);
      const [routed] = await ec2.describeRouteTables({ ids: [table.id] });
      expect(routed?.routes).toContainEqual(expect.objectContaining({ destinationCidrBlock: '0.0.0.0/0', gatewayId: igw.id }));
      expect(routed?.associations).toContainEqual(expect.objectContaining({ subnetId: subnet.id }));
      const [authorized] = await ec2.describeSecurityGroups({ ids: [group.id] });
      expect(authorized?.ingress).toContainEqual(expect.objectContaining({ protocol: 'tcp', fromPort: 6443, toPort: 6443, cidrBlocks: ['0.0.0.0/0'] }));

      expect(await codeOf(ec2.deleteVpc(vpc.id))).toBe('DependencyViolation');

      await ec2.disassociateRouteTable(association);
      await ec2.deleteRouteTable(table.id);
      await ec2.deleteNatGateway(nat.id);
      await ec2.releaseAddress(eip.allocationId);
      await ec2.detachInternetGateway(igw.id, vpc.id);
      await ec2.deleteInternetGateway(igw.id);
      await ec2.deleteSecurityGroup(group.id);
      await ec2.deleteSubnet(subnet.id);
      await ec2.deleteVpc(vpc.id);
      expect(await codeOf(ec2.describeVpcs({ ids: [vpc.id] }))).toBe('InvalidVpcID.NotFound');
    });

    it('launches a Spot instance when asked, described as spot; an on-demand one is not', async () => {
      const t = await make();
      const { subnet, group } = await network(t);
      const request = { instanceType: 't3.micro', imageId: t.imageId, subnetId: subnet.id, securityGroupIds: [group.id], userData: Buffer.from('#cloud-config\n').toString('base64') };
      const spot = await t.cloud.ec2.runInstance({ ...request, clientToken: unique(), tags: { Name: `spot-${unique()}` }, spot: { maxPrice: '0.05' } });
      const onDemand = await t.cloud.ec2.runInstance({ ...request, clientToken: unique(), tags: { Name: `od-${unique()}` } });
      const described = await t.cloud.ec2.describeInstances({ ids: [spot.id, onDemand.id] });
      expect(described.find((i) => i.id === spot.id)?.lifecycle).toBe('spot');
      expect(described.find((i) => i.id === onDemand.id)?.lifecycle).toBeUndefined();
    });

    it('launches with the instance metadata options asked for, describes them as applied, and changes them', async () => {
      const t = await make();
      const { subnet, group } = await network(t);
      const metadataOptions = { httpEndpoint: 'enabled', httpProtocolIpv6: 'disabled', httpPutResponseHopLimit: 2, httpTokens: 'required', instanceMetadataTags: 'disabled' } as const;
      const launched = await t.cloud.ec2.runInstance({
        clientToken: unique(),
        imageId: t.imageId,
        instanceType: 't3.micro',
        subnetId: subnet.id,
        securityGroupIds: [group.id],
        userData: Buffer.from('#cloud-config\n').toString('base64'),
        tags: { Name: `imds-${unique()}` },
        metadataOptions,
      });
      const [described] = await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      expect(described?.metadataOptions).toEqual(metadataOptions);
      // Changed on the running instance, and described so.
      const optional = { ...metadataOptions, httpTokens: 'optional', httpPutResponseHopLimit: 1 } as const;
      await t.cloud.ec2.modifyInstanceMetadataOptions(launched.id, optional);
      const [modified] = await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      expect(modified?.metadataOptions).toEqual(optional);
    });

    it("lists an instance's network interfaces with their groups, and replaces an interface's groups", async () => {
      const t = await make();
      const { vpc, subnet, group } = await network(t);
      const other = await t.cloud.ec2.createSecurityGroup({ vpcId: vpc.id, name: `other-${unique()}`, description: 'other', tags: { Name: 'other' } });
      const launched = await launch(t, subnet.id, group.id, { Name: `eni-${unique()}` });
      const [eni, ...more] = await t.cloud.ec2.describeInstanceNetworkInterfaces(launched.id);
      expect(more).toEqual([]);
      expect(eni?.securityGroupIds).toEqual([group.id]);
      await t.cloud.ec2.setNetworkInterfaceSecurityGroups(eni?.id ?? '', [group.id, other.id]);
      const [after] = await t.cloud.ec2.describeInstanceNetworkInterfaces(launched.id);
      expect([...(after?.securityGroupIds ?? [])].sort()).toEqual([group.id, other.id].sort());
    });

    it('retags an instance and its volume: creates and changes tags, deletes one only while it has the value given', async () => {
      const t = await make();
      const { subnet, group } = await network(t);
      const name = `retag-${unique()}`;
      const launched = await launch(t, subnet.id, group.id, { Name: name, team: 'a', cost: 'x', keep: 'v' });
      await t.cloud.ec2.updateResourceTags(launched.id, { create: { team: 'b', env: 'prod' }, delete: { cost: 'x', keep: 'other' } });
      const [described] = await t.cloud.ec2.describeInstances({ ids: [launched.id] });
      expect(described?.tags).toEqual({ Name: name, team: 'b', env: 'prod', keep: 'v' });
      // Nothing to change sends nothing (moto tags even an unknown id, so that refusal is not compared here).
      await t.cloud.ec2.updateResourceTags(launched.id, { create: {}, delete: {} });
      // Its root volume, tagged at launch, is retagged the same way.
      const volumeIds = described?.volumeIds ?? [];
      expect(volumeIds.length).toBeGreaterThan(0);
      await t.cloud.ec2.updateResourceTags(volumeIds[0] ?? '', { create: { team: 'b' }, delete: { cost: 'x' } });
      const [volume] = await t.cloud.ec2.describeVolumes([volumeIds[0] ?? '']);
      expect(volume?.tags).toEqual({ Name: name, team: 'b', keep: 'v' });
    });

    it.each([
      ['t3.large', { instanceType: 't3.large', defaultVCpus: 2, memoryMiB: 8192, architectures: ['x86_64'] }],
      ['m6g.xlarge', { instanceType: 'm6g.xlarge', defaultVCpus: 4, memoryMiB: 16384, architectures: ['arm64'] }],
      ['t3.nano', { instanceType: 't3.nano', defaultVCpus: 2, memoryMiB: 512, architectures: ['x86_64'] }],
    ])('describes instance type %s with its vCPUs, memory and architecture', async (name, expected) => {
      const t = await make();
      expect(await t.cloud.ec2.describeInstanceTypes([name])).toEqual([expected]);
    });

    it.each([
      ['a type EC2 does not offer', ['m9.huge']],
      ['one unknown among known ones', ['t3.large', 'zz.nothing']],
    ])('refuses %s as InvalidInstanceType', async (_case, names) => {
      const t = await make();
      expect(await codeOf(t.cloud.ec2.describeInstanceTypes(names))).toBe('InvalidInstanceType');
    });

    it('stores user data chunks as binary secrets, replaces a leftover of the same name, and deletes idempotently', async () => {
      const t = await make();
      const name = `aws.cluster.x-k8s.io/${unique()}-0`;
      await t.cloud.secrets.createSecret({ name, value: new Uint8Array([1, 2, 3]), tags: { Name: 'm' } });
      await t.cloud.secrets.createSecret({ name, value: new Uint8Array([4, 5]), tags: { Name: 'm' } });
      expect([...((await t.cloud.secrets.getSecret(name)) ?? [])]).toEqual([4, 5]);
      await t.cloud.secrets.deleteSecret(name);
      await t.cloud.secrets.deleteSecret(name);
      expect(await t.cloud.secrets.getSecret(name)).toBeUndefined();
    });
  });
}
