/**
 * Deleting an AWSCluster (CAPA's reconcileDelete): wait while AWSMachines of the cluster exist,
 * then remove exactly what capless created, in reverse order: load balancer (listener with it)
 * and target group, security groups (rules that refer to other groups first), then for a managed
 * VPC the route tables, NAT gateways (waiting until deleted), Elastic IPs, internet gateway,
 * subnets and the VPC. Everything is found by its ownership tag; a user's VPC and subnets are
 * never touched. Each step is idempotent, so a crash anywhere resumes where it stopped.
 */

import { LABEL_CLUSTER_NAME } from '../../../../../shared/contracts/object.js';
import { AWS_MACHINE_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import { isOwnedBy } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import type { Ec2 } from '../../../../../shared/ports/ec2.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { loadBalancerName, targetGroupName } from './load-balancer-phase.js';
import { loadClusterOwner } from './owner-phase.js';
import { ownedFilters } from './owned-filters.js';
import type { AwsClusterScope } from './scope.js';
import { SECURITY_GROUP_ROLES, securityGroupName } from './security-group-plan.js';

export const MACHINES_REMAIN_REQUEUE_SECONDS = 20;
export const NAT_DELETING_REQUEUE_SECONDS = 15;

export async function waitForMachinesPhase(s: AwsClusterScope): Promise<PhaseResult> {
  await loadClusterOwner(s);
  const machines = await s.ctx.store.list({
    ...AWS_MACHINE_KIND,
    namespace: s.object.metadata.namespace,
    labelSelector: [{ key: LABEL_CLUSTER_NAME, operator: 'Equals', values: [s.clusterName] }],
  });
  if (machines.items.length === 0) return {};
  s.conditions.push({ type: 'Ready', status: 'False', reason: 'Deleting', message: `waiting for ${machines.items.length} AWSMachine(s) to be deleted` });
  return { stop: true, requeueAfterSeconds: MACHINES_REMAIN_REQUEUE_SECONDS };
}

async function deleteLoadBalancer(s: AwsClusterScope): Promise<void> {
  const loadBalancers = s.cloud?.loadBalancers;
  if (!loadBalancers) return;
  const lb = await loadBalancers.findLoadBalancer(loadBalancerName(s.object.metadata.namespace, s.clusterName));
  if (lb && isOwnedBy(lb.tags, s.clusterName)) await loadBalancers.deleteLoadBalancer(lb.arn);
  const tg = await loadBalancers.findTargetGroup(targetGroupName(s.object.metadata.uid));
  if (tg && isOwnedBy(tg.tags, s.clusterName)) await loadBalancers.deleteTargetGroup(tg.arn);
}

async function deleteSecurityGroups(s: AwsClusterScope, ec2: Ec2): Promise<void> {
  const names = new Set(SECURITY_GROUP_ROLES.map((role) => securityGroupName(s.clusterName, role)));
  const groups = (await ec2.describeSecurityGroups({ filters: ownedFilters(s.clusterName) })).filter((g) => names.has(g.name) && isOwnedBy(g.tags, s.clusterName));
  for (const group of groups) {
    const referring = group.ingress.filter((r) => (r.sourceSecurityGroupIds ?? []).length > 0);
    if (referring.length > 0) await ec2.revokeIngress(group.id, referring);
  }
  for (const group of groups) await ec2.deleteSecurityGroup(group.id);
}

async function deleteRouteTables(s: AwsClusterScope, ec2: Ec2): Promise<void> {
  for (const table of await ec2.describeRouteTables({ filters: ownedFilters(s.clusterName) })) {
    if (!isOwnedBy(table.tags, s.clusterName)) continue;
    for (const association of table.associations) if (!association.main) await ec2.disassociateRouteTable(association.id);
    await ec2.deleteRouteTable(table.id);
  }
}

/** True once every NAT gateway of the cluster is deleted (they take minutes on AWS). */
async function deleteNatGateways(s: AwsClusterScope, ec2: Ec2): Promise<boolean> {
  const nats = (await ec2.describeNatGateways({ filters: ownedFilters(s.clusterName) })).filter((n) => isOwnedBy(n.tags, s.clusterName) && n.state !== 'deleted');
  for (const nat of nats) if (nat.state !== 'deleting') await ec2.deleteNatGateway(nat.id);
  if (nats.length === 0) return true;
  const remaining = (await ec2.describeNatGateways({ ids: nats.map((n) => n.id) })).filter((n) => n.state !== 'deleted');
  return remaining.length === 0;
}

async function deleteGatewaysSubnetsAndVpc(s: AwsClusterScope, ec2: Ec2): Promise<void> {
  const owned = ownedFilters(s.clusterName);
  const mine = <T extends { tags: Readonly<Record<string, string>> }>(items: T[]) => items.filter((item) => isOwnedBy(item.tags, s.clusterName));
  for (const address of mine(await ec2.describeAddresses({ filters: owned }))) await ec2.releaseAddress(address.allocationId);
  for (const gateway of mine(await ec2.describeInternetGateways({ filters: owned }))) {
    for (const vpcId of gateway.vpcIds) await ec2.detachInternetGateway(gateway.id, vpcId);
    await ec2.deleteInternetGateway(gateway.id);
  }
  for (const subnet of mine(await ec2.describeSubnets({ filters: owned }))) await ec2.deleteSubnet(subnet.id);
  for (const vpc of mine(await ec2.describeVpcs({ filters: owned }))) await ec2.deleteVpc(vpc.id);
}

/** True once nothing is left; false while NAT gateways are still being deleted. */
async function deleteManagedNetwork(s: AwsClusterScope, ec2: Ec2): Promise<boolean> {
  await deleteRouteTables(s, ec2);
  if (!(await deleteNatGateways(s, ec2))) return false;
  await deleteGatewaysSubnetsAndVpc(s, ec2);
  return true;
}

export async function deleteInfrastructurePhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud) return {};
  try {
    await deleteLoadBalancer(s);
    await deleteSecurityGroups(s, s.cloud.ec2);
    if (!(await deleteManagedNetwork(s, s.cloud.ec2))) {
      s.conditions.push({ type: 'Ready', status: 'False', reason: 'Deleting', message: 'waiting for NAT gateways to be deleted' });
      return { stop: true, requeueAfterSeconds: NAT_DELETING_REQUEUE_SECONDS };
    }
  } catch (error) {
    return cloudFailure(s, 'Ready', 'DeletionFailed', error);
  }
  s.conditions.push({ type: 'Ready', status: 'False', reason: 'Deleted' });
  return {};
}
