/**
 * The ClusterRoleBindings newer kubeadm versions expect and `kubeadm upgrade` would create
 * (Cluster API's EnsureKubeadmPermissions), created when absent, never changed: for a target
 * below v1.38, `kubeadm:cluster-admins` (the Group kubeadm's admin credentials carry since v1.29,
 * bound to `cluster-admin`) and `kubeadm:apiserver-kubelet-client` (v1.37's narrower kubelet API
 * access for the API server's client certificate). A cluster made by an older kubeadm and rolled
 * forward by replacing Machines has neither.
 */

import { parseSemVer } from '../../../../shared/contracts/clusterctl/semver.js';
import { TransientError } from '../../../../shared/errors/index.js';
import type { WorkloadClusterRef, WorkloadObject } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { ReconcileContext } from '../../engine/skeleton/types.js';

const RBAC = 'rbac.authorization.k8s.io';

function clusterRoleBinding(name: string, role: string, subject: { kind: 'Group' | 'User'; name: string }): WorkloadObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, ...subject }],
  };
}

/** What a control plane rolled to `version` must have; none from v1.38 (pre-releases count as their release). */
export function kubeadmPermissions(version: string): WorkloadObject[] {
  const parsed = parseSemVer(version);
  if (!parsed || parsed.major > 1 || (parsed.major === 1 && parsed.minor >= 38)) return [];
  return [
    clusterRoleBinding('kubeadm:cluster-admins', 'cluster-admin', { kind: 'Group', name: 'kubeadm:cluster-admins' }),
    clusterRoleBinding('kubeadm:apiserver-kubelet-client', 'system:kubelet-api-admin', { kind: 'User', name: 'kube-apiserver-kubelet-client' }),
  ];
}

export async function ensureKubeadmPermissions(ctx: ReconcileContext, cluster: WorkloadClusterRef, version: string): Promise<void> {
  const objects = kubeadmPermissions(version);
  if (objects.length === 0) return;
  const failures = await workloadClusterOf(ctx).applyObjects(cluster, objects, { mode: 'CreateOnly' });
  if (failures.length > 0) throw new TransientError(`failed to set the ClusterRoleBindings kubeadm ${version} needs: ${failures.map((f) => f.message).join('; ')}`);
}
