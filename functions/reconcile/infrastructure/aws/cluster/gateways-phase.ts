/**
 * A managed VPC's way out: the internet gateway (attached), one NAT gateway per zone in its
 * public subnet (with its Elastic IP, and a ClientToken so a retried create returns the same one),
 * and a route table per subnet (public → internet gateway, private → the zone's NAT gateway).
 * Skipped for a VPC capless does not own.
 */

import type { Ec2, NatGateway } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import type { NetworkPlan } from './network-plan.js';
import { ownedFilters } from './owned-filters.js';
import { networkPlanOf } from './plan-input.js';
import { type AwsClusterScope, CONDITIONS } from './scope.js';

/** NAT gateways are usable once available; CAPA waits for it. */
export const NAT_PENDING_REQUEUE_SECONDS = 15;

function planOf(s: AwsClusterScope): NetworkPlan {
  return networkPlanOf(s, [...new Set(s.subnets.map((subnet) => subnet.availabilityZone))]);
}

async function ensureInternetGateway(s: AwsClusterScope, ec2: Ec2, vpcId: string, plan: NetworkPlan): Promise<string> {
  const [found] = await ec2.describeInternetGateways({ filters: ownedFilters(s.clusterName, plan.internetGateway.name) });
  const gateway = found ?? (await ec2.createInternetGateway({ tags: plan.internetGateway.tags }));
  if (!gateway.vpcIds.includes(vpcId)) await ec2.attachInternetGateway(gateway.id, vpcId);
  return gateway.id;
}

async function ensureNatGateways(s: AwsClusterScope, ec2: Ec2, plan: NetworkPlan): Promise<NatGateway[]> {
  const nats: NatGateway[] = [];
  for (const planned of plan.natGateways) {
    const subnet = s.subnets.find((sn) => sn.tags.Name === planned.subnetName);
    if (!subnet) continue;
    const [existing] = await ec2.describeNatGateways({
      filters: [...ownedFilters(s.clusterName, planned.name), { name: 'state', values: ['pending', 'available'] }],
    });
    if (existing) {
      nats.push(existing);
      continue;
    }
    const [address] = await ec2.describeAddresses({ filters: ownedFilters(s.clusterName, planned.elasticIp.name) });
    const allocationId = (address ?? (await ec2.allocateAddress({ tags: planned.elasticIp.tags }))).allocationId;
    nats.push(
      await ec2.createNatGateway({ subnetId: subnet.id, allocationId, clientToken: `${s.object.metadata.uid}-${planned.availabilityZone}`.slice(0, 64), tags: planned.tags }),
    );
  }
  return nats;
}

async function ensureRouteTables(s: AwsClusterScope, ec2: Ec2, vpcId: string, plan: NetworkPlan, gatewayId: string, nats: readonly NatGateway[]): Promise<void> {
  const existing = await ec2.describeRouteTables({ filters: [{ name: 'vpc-id', values: [vpcId] }, ...ownedFilters(s.clusterName)] });
  for (const planned of plan.routeTables) {
    const subnet = s.subnets.find((sn) => sn.tags.Name === planned.subnetName);
    if (!subnet) continue;
    const table = existing.find((t) => t.tags.Name === planned.name) ?? (await ec2.createRouteTable({ vpcId, tags: planned.tags }));
    const natId = nats.find((n) => n.subnetId === s.subnets.find((sn) => sn.isPublic && sn.availabilityZone === planned.availabilityZone)?.id)?.id;
    const target = planned.isPublic ? { gatewayId } : natId ? { natGatewayId: natId } : undefined;
    if (target && !table.routes.some((r) => r.destinationCidrBlock === '0.0.0.0/0')) await ec2.createRoute(table.id, { destinationCidrBlock: '0.0.0.0/0', ...target });
    if (!table.associations.some((a) => a.subnetId === subnet.id)) await ec2.associateRouteTable(table.id, subnet.id);
  }
}

export async function gatewaysPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud || !s.vpc) return { stop: true };
  if (!s.vpc.managed) return {};
  const { ec2 } = s.cloud;
  const vpcId = s.vpc.id;
  const plan = planOf(s);
  let step: string = CONDITIONS.internetGateway;
  try {
    s.internetGatewayId = await ensureInternetGateway(s, ec2, vpcId, plan);
    s.conditions.push({ type: CONDITIONS.internetGateway, status: 'True', reason: 'InternetGatewayReady' });
    step = CONDITIONS.natGateways;
    const nats = await ensureNatGateways(s, ec2, plan);
    s.natGatewayIps = nats.flatMap((n) => n.publicIps);
    if (nats.some((n) => n.state !== 'available')) {
      s.conditions.push({ type: CONDITIONS.natGateways, status: 'False', reason: 'NatGatewaysCreationStarted', message: 'waiting for NAT gateways to become available' });
      return { stop: true, requeueAfterSeconds: NAT_PENDING_REQUEUE_SECONDS };
    }
    s.conditions.push({ type: CONDITIONS.natGateways, status: 'True', reason: 'NatGatewaysReady' });
    step = CONDITIONS.routeTables;
    await ensureRouteTables(s, ec2, vpcId, plan, s.internetGatewayId, nats);
  } catch (error) {
    return cloudFailure(s, step, `${step.replace(/Ready$/, '')}ReconciliationFailed`, error);
  }
  s.conditions.push({ type: CONDITIONS.routeTables, status: 'True', reason: 'RouteTablesReady' });
  return {};
}
