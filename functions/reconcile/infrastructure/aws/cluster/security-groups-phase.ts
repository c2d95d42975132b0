/** CAPA's security groups per role, created in the cluster's VPC (managed or not) and their rules added when missing. */

import { isCloudApiError } from '../../../../../shared/errors/index.js';
import { ownedResourceTags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import type { SecurityGroupRole } from '../common/cluster-network.js';
import { additionalTagsOf } from './plan-input.js';
import { type AwsClusterScope, CONDITIONS } from './scope.js';
import { ingressRules, missingRules, SECURITY_GROUP_ROLES, securityGroupName } from './security-group-plan.js';

export async function securityGroupsPhase(s: AwsClusterScope): Promise<PhaseResult> {
  if (!s.cloud || !s.vpc) return { stop: true };
  const { ec2 } = s.cloud;
  const vpc = s.vpc;
  try {
    const existing = await ec2.describeSecurityGroups({ filters: [{ name: 'vpc-id', values: [vpc.id] }] });
    const ids: Record<SecurityGroupRole, string> = { 'apiserver-lb': '', lb: '', controlplane: '', node: '' };
    for (const role of SECURITY_GROUP_ROLES) {
      const name = securityGroupName(s.clusterName, role);
      const group =
        existing.find((g) => g.name === name) ??
        (await ec2.createSecurityGroup({ vpcId: vpc.id, name, description: `Kubernetes cluster ${s.clusterName}: ${role}`, tags: ownedResourceTags(s.clusterName, name, role, additionalTagsOf(s)) }));
      ids[role] = group.id;
      s.securityGroups[role] = { id: group.id, name };
    }
    for (const role of SECURITY_GROUP_ROLES) {
      const current = existing.find((g) => g.id === ids[role])?.ingress ?? [];
      const missing = missingRules(ingressRules(role, ids, vpc.cidrBlock), current);
      for (const rule of missing) {
        try {
          await ec2.authorizeIngress(ids[role], [rule]);
        } catch (error) {
          if (!isCloudApiError(error) || error.code !== 'InvalidPermission.Duplicate') throw error;
        }
      }
    }
  } catch (error) {
    return cloudFailure(s, CONDITIONS.securityGroups, 'ClusterSecurityGroupReconciliationFailed', error);
  }
  s.conditions.push({ type: CONDITIONS.securityGroups, status: 'True', reason: 'ClusterSecurityGroupsReady' });
  return {};
}
