/** AWSCluster: the owning Cluster (CAPA waits for it), the region and the cloud. */

import { stringAt } from '../../../../../shared/contracts/json.js';
import { controllerOf, LABEL_CLUSTER_NAME } from '../../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { awsCloudFor } from '../common/cloud-port.js';
import type { AwsClusterScope } from './scope.js';

export async function loadClusterOwner(s: AwsClusterScope): Promise<void> {
  const owner = controllerOf(s.object) ?? s.object.metadata.ownerReferences?.find((r) => r.kind === 'Cluster');
  const name = owner?.kind === 'Cluster' ? owner.name : s.object.metadata.labels?.[LABEL_CLUSTER_NAME];
  if (name) {
    s.cluster = await s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace: s.object.metadata.namespace, name });
    s.clusterName = name;
  }
  s.region = stringAt(s.object, 'spec', 'region');
  if (s.region) s.cloud = awsCloudFor(s.ctx, s.region);
}

export async function ownerPhase(s: AwsClusterScope): Promise<PhaseResult> {
  await loadClusterOwner(s);
  if (!s.cluster) {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'WaitingForCluster', message: 'no Cluster owns this AWSCluster yet' });
    return { stop: true };
  }
  if (!s.cloud) {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'RegionMissing', message: 'spec.region is required' });
    return { stop: true };
  }
  return {};
}
