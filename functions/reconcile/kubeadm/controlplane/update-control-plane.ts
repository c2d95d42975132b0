/**
 * What the workload cluster needs before a rollout's next Machine joins (Cluster API's
 * updateControlPlane, before its rollingUpdate): the ClusterRoleBindings of the target kubeadm
 * (kubeadm-permissions.ts) and the kubeadm-config ConfigMap at the target version and spec
 * (kubeadm-config-map.ts). Run while a Machine not deleting is not up to date, in the phase
 * before the replicas are reconciled, so the Machine it leads to is created after them.
 */

import { isDeleting } from '../../../../shared/contracts/object.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { workloadClusterRefOf } from './etcd-leadership.js';
import { updateKubeadmConfigMap } from './kubeadm-config-map.js';
import { ensureKubeadmPermissions } from './kubeadm-permissions.js';
import type { KcpScope } from './scope.js';

function rollingOut(scope: KcpScope): boolean {
  return scope.facts.some((machine) => !machine.deleting && !machine.upToDate);
}

export async function updateControlPlane(scope: KcpScope): Promise<PhaseResult | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster || !scope.initialized || isDeleting(scope.object) || !rollingOut(scope)) return undefined;
  await ensureKubeadmPermissions(scope.ctx, cluster, scope.spec.version);
  await updateKubeadmConfigMap(scope, cluster);
  return undefined;
}
