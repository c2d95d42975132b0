/**
 * CAPA's security groups per role, created in the cluster's VPC (managed or not) and their rules
 * added when missing. A role `network.securityGroupOverrides` names uses that group instead: it is
 * looked up by ID, never created, tagged, given rules or deleted (another process manages it), and
 * the other groups' rules refer to it. As CAPA refuses them, overrides with a network capless
 * manages are an error (a managed VPC's groups do not exist before it).
 */

import { recordAt } from '../../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../../shared/contracts/object.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { Ec2, SecurityGroup } from '../../../../../shared/ports/ec2.js';
import { ownedResourceTags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import type { SecurityGroupRole } from '../common/cluster-network.js';
import { additionalTagsOf } from './plan-input.js';
import { type AwsClusterScope, CONDITIONS } from './scope.js';
import { ingressRules, missingRules, SECURITY_GROUP_ROLES, securityGroupName } from './security-group-plan.js';

/** `spec.network.securityGroupOverrides`: the roles capless knows, each with a group ID. */
export function securityGroupOverridesOf(awsCluster: KubeObject): Partial<Record<SecurityGroupRole, string>> {
  const overrides = recordAt(awsCluster, 'spec', 'network', 'securityGroupOverrides') ?? {};
  return Object.fromEntries(SECURITY_GROUP_ROLES.flatMap((role) => (typeof overrides[role] === 'string' && overrides[role] !== '' ? [[role, overrides[role]]] : [])));
}

type Overrides = Partial<Record<SecurityGroupRole, string>>;

/** Each role's group: the override, the one capless made before, or a new one; their IDs by role. */
async function ensureGroups(s: AwsClusterScope, ec2: Ec2, vpc: { id: string }, existing: readonly SecurityGroup[], overrides: Overrides): Promise<Record<SecurityGroupRole, string>> {
  const overridden = Object.values(overrides).length > 0 ? await ec2.describeSecurityGroups({ ids: Object.values(overrides) }) : [];
  const ids: Record<SecurityGroupRole, string> = { 'apiserver-lb': '', lb: '', controlplane: '', node: '' };
  for (const role of SECURITY_GROUP_ROLES) {
    const name = securityGroupName(s.clusterName, role);
    const group =
      overridden.find((g) => g.id === overrides[role]) ??
      existing.find((g) => g.name === name) ??
      (await ec2.createSecurityGroup({ vpcId: vpc.id, name, description: `Kubernetes cluster ${s.clusterName}: ${role}`, tags: ownedResourceTags(s.clusterName, name, role, additionalTagsOf(s)) }));
    ids[role] = group.id;
    s.securityGroups[role] = { id: group.id, name: group.name };
  }
  return ids;
}

/** The rules missing from capless's own groups; another process manages an override's. */
async function ensureRules(ec2: Ec2, vpc: { cidrBlock: string }, existing: readonly SecurityGroup[], ids: Record<SecurityGroupRole, string>, overrides: Overrides): Promise<void> {
  for (const role of SECURITY_GROUP_ROLES) {
    if (overrides[role]) continue;
    const current = existing.find((g) => g.id === ids[role])?.ingress ?? [];
    for (const rule of missingRules(ingressRules(role, ids, vpc.cidrBlock), current)) {
      try {
        await ec2.authorizeIngress(ids[role], [rule]);
      } catch (error) {
        if (!isCloudApiError(error) || error.code !== 'InvalidPermission.Duplicate') throw error;
      }
    }
  }
}

export async function securityGroupsPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud || !s.vpc) return { stop: true };
  const { ec2 } = s.cloud;
  const vpc = s.vpc;
  const overrides = securityGroupOverridesOf(s.object);
  if (Object.keys(overrides).length > 0 && vpc.managed) {
    s.conditions.push({ type: CONDITIONS.securityGroups, status: 'False', reason: 'ClusterSecurityGroupReconciliationFailed', message: `security group overrides provided for managed vpc "${s.clusterName}"` });
    return { stop: true };
  }
  try {
    const existing = await ec2.describeSecurityGroups({ filters: [{ name: 'vpc-id', values: [vpc.id] }] });
    const ids = await ensureGroups(s, ec2, vpc, existing, overrides);
    await ensureRules(ec2, vpc, existing, ids, overrides);
  } catch (error) {
    return cloudFailure(s, CONDITIONS.securityGroups, 'ClusterSecurityGroupReconciliationFailed', error);
  }
  s.conditions.push({ type: CONDITIONS.securityGroups, status: 'True', reason: 'ClusterSecurityGroupsReady' });
  return {};
}
