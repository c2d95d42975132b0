/**
 * The VPC and its subnets. Managed: found by CAPA's names and ownership tag, else created.
 * Bring-your-own (`network.vpc.id` of a VPC capless does not own): read only; the listed subnets
 * must exist and belong to that VPC; nothing of the user's is created, changed or deleted.
 */

import { conditionsOf } from '../../../../../shared/contracts/conditions.js';
import { isRecord, stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { isOwnedBy } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { CloudApiError } from '../../../../../shared/errors/index.js';
import type { Ec2, Subnet } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { ownedFilters } from './owned-filters.js';
import { networkPlanOf } from './plan-input.js';
import { type AwsClusterScope, CONDITIONS, type FoundSubnet } from './scope.js';

function conditionTrue(s: AwsClusterScope, type: string): boolean {
  return conditionsOf(s.object.status).some((c) => c.type === type && c.status === 'True');
}

async function ensureVpc(s: AwsClusterScope, ec2: Ec2): Promise<void> {
  const givenId = stringAt(s.object, 'spec', 'network', 'vpc', 'id');
  if (givenId) {
    const [vpc] = await ec2.describeVpcs({ ids: [givenId] });
    if (!vpc) throw new CloudApiError('DescribeVpcs', 'InvalidVpcID.NotFound', `The vpc ID '${givenId}' does not exist`);
    s.vpc = { id: vpc.id, cidrBlock: vpc.cidrBlock, managed: isOwnedBy(vpc.tags, s.clusterName) };
    return;
  }
  const plan = networkPlanOf(s, []);
  const [found] = await ec2.describeVpcs({ filters: [{ name: 'tag:Name', values: [plan.vpc.name] }] });
  if (found && !isOwnedBy(found.tags, s.clusterName)) {
    throw new CloudApiError('DescribeVpcs', 'VpcNotOwned', `VPC ${found.id} is named ${plan.vpc.name} but is not owned by cluster ${s.clusterName}`);
  }
  const vpc = found ?? (await ec2.createVpc({ cidrBlock: plan.vpc.cidrBlock, tags: plan.vpc.tags }));
  // DNS support is set once; re-asserted until VpcReady has been True (a crash may come between).
  if (!conditionTrue(s, CONDITIONS.vpc)) await ec2.enableVpcDns(vpc.id);
  s.vpc = { id: vpc.id, cidrBlock: vpc.cidrBlock, managed: true };
}

export async function vpcPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud) return { stop: true };
  try {
    await ensureVpc(s, s.cloud.ec2);
  } catch (error) {
    return cloudFailure(s, CONDITIONS.vpc, 'VpcReconciliationFailed', error);
  }
  s.conditions.push({ type: CONDITIONS.vpc, status: 'True', reason: s.vpc?.managed ? 'VpcCreated' : 'VpcUnmanaged' });
  return {};
}

async function managedSubnets(s: AwsClusterScope, ec2: Ec2, vpcId: string): Promise<FoundSubnet[]> {
  const zones = (await ec2.describeAvailabilityZones()).filter((z) => z.state === 'available').map((z) => z.name);
  const plan = networkPlanOf(s, zones);
  const existing = await ec2.describeSubnets({ filters: [{ name: 'vpc-id', values: [vpcId] }, ...ownedFilters(s.clusterName)] });
  const found: FoundSubnet[] = [];
  for (const planned of plan.subnets) {
    let subnet = existing.find((e) => e.tags.Name === planned.name);
    subnet ??= await ec2.createSubnet({ vpcId, cidrBlock: planned.cidrBlock, availabilityZone: planned.availabilityZone, tags: planned.tags });
    if (planned.isPublic && !subnet.mapPublicIpOnLaunch) {
      await ec2.setMapPublicIpOnLaunch(subnet.id);
      subnet = { ...subnet, mapPublicIpOnLaunch: true };
    }
    found.push({ ...subnet, isPublic: planned.isPublic });
  }
  return found;
}

function listedSubnets(s: AwsClusterScope): { id: string; isPublic?: boolean }[] {
  const listed = valueAt(s.object, 'spec', 'network', 'subnets');
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((item) => {
    if (!isRecord(item) || typeof item.id !== 'string') return [];
    return [{ id: item.id, ...(typeof item.isPublic === 'boolean' ? { isPublic: item.isPublic } : {}) }];
  });
}

/** A user's subnet is public when its route table sends 0.0.0.0/0 to an internet gateway (CAPA). */
async function isPublicSubnet(ec2: Ec2, subnet: Subnet): Promise<boolean> {
  const tables = await ec2.describeRouteTables({ filters: [{ name: 'association.subnet-id', values: [subnet.id] }] });
  return tables.some((t) => t.routes.some((r) => r.destinationCidrBlock === '0.0.0.0/0' && r.gatewayId?.startsWith('igw-')));
}

async function unmanagedSubnets(s: AwsClusterScope, ec2: Ec2, vpcId: string): Promise<FoundSubnet[]> {
  const listed = listedSubnets(s);
  if (listed.length === 0) throw new CloudApiError('DescribeSubnets', 'SubnetsNotListed', 'a VPC capless does not own needs its subnets listed in spec.network.subnets');
  const subnets = await ec2.describeSubnets({ ids: listed.map((l) => l.id) });
  const found: FoundSubnet[] = [];
  for (const subnet of subnets) {
    if (subnet.vpcId !== vpcId) {
      throw new CloudApiError('DescribeSubnets', 'InvalidSubnet.VpcMismatch', `subnet ${subnet.id} belongs to ${subnet.vpcId}, not to the cluster's VPC ${vpcId}`);
    }
    const declared = listed.find((l) => l.id === subnet.id)?.isPublic;
    found.push({ ...subnet, isPublic: declared ?? (await isPublicSubnet(ec2, subnet)) });
  }
  return found;
}

export async function subnetsPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud || !s.vpc) return { stop: true };
  try {
    s.subnets = s.vpc.managed ? await managedSubnets(s, s.cloud.ec2, s.vpc.id) : await unmanagedSubnets(s, s.cloud.ec2, s.vpc.id);
  } catch (error) {
    return cloudFailure(s, CONDITIONS.subnets, 'SubnetsReconciliationFailed', error);
  }
  s.conditions.push({ type: CONDITIONS.subnets, status: 'True', reason: 'SubnetsReady' });
  return {};
}
