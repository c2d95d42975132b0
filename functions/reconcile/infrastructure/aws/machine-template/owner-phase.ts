/**
 * What the template controller needs before it asks EC2 anything (CAPA's Reconcile): an instance
 * type, a status not yet complete, the Cluster that owns the template (`util.GetOwnerCluster`;
 * Cluster API's MachineDeployment, MachineSet and KubeadmControlPlane controllers add it) and the
 * region of that Cluster's AWSCluster. Missing any: nothing to do, no requeue; the ownerReference
 * arriving is a change of the template itself and wakes it.
 */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { groupOf } from '../../../../../shared/contracts/object.js';
import { AWS_CLUSTER_KIND } from '../../../../../shared/contracts/providers/aws/aws-kinds.js';
import { CORE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { awsCloudFor } from '../common/cloud-port.js';
import type { AwsMachineTemplateScope } from './scope.js';

/** Capacity and both halves of nodeInfo are there: CAPA asks EC2 nothing more (the spec is immutable). */
export function statusComplete(s: AwsMachineTemplateScope): boolean {
  return Object.keys(s.capacity).length > 0 && s.nodeInfo?.architecture !== undefined && s.nodeInfo.operatingSystem !== undefined;
}

export function needsStatusPhase(s: AwsMachineTemplateScope): PhaseResult {
  if (!stringAt(s.machineSpec, 'instanceType') || statusComplete(s)) return { stop: true };
  return {};
}

export async function ownerRegionPhase(s: AwsMachineTemplateScope): Promise<PhaseResult> {
  const { namespace } = s.object.metadata;
  const owner = (s.object.metadata.ownerReferences ?? []).find((ref) => ref.kind === 'Cluster' && groupOf(ref.apiVersion) === CORE_GROUP);
  if (!owner) return { stop: true };
  s.cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: owner.name });
  const infrastructure = stringAt(s.cluster, 'spec', 'infrastructureRef', 'name');
  if (!infrastructure || stringAt(s.cluster, 'spec', 'infrastructureRef', 'kind') !== AWS_CLUSTER_KIND.kind) return { stop: true };
  s.awsCluster = await s.ctx.store.get({ ...AWS_CLUSTER_KIND, namespace, name: infrastructure });
  const region = stringAt(s.awsCluster, 'spec', 'region');
  if (!region) return { stop: true };
  s.cloud = awsCloudFor(s.ctx, region);
  return {};
}
