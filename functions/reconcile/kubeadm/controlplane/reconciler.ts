/** The kubeadm control-plane provider: KubeadmControlPlane → certificates, kubeconfig, control-plane Machines. */

import { CONTROL_PLANE_GROUP, CORE_GROUP } from '../common/well-known.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { deleteControlPlane } from './delete-phases.js';
import {
  collectMachines,
  reconcileCertificates,
  reconcileKubeconfig,
  reconcileReplicas,
  reportConditions,
  resolveCluster,
} from './phases.js';
import { remediateControlPlane } from './remediation.js';
import { type KcpScope, createKcpScope } from './scope.js';
import { kcpStatus } from './status.js';

export const KCP_FINALIZER = 'kubeadm.controlplane.cluster.x-k8s.io';

export const kubeadmControlPlaneReconciler: ReconcilerDefinition<KcpScope> = {
  kind: { group: CONTROL_PLANE_GROUP, kind: 'KubeadmControlPlane' },
  finalizer: KCP_FINALIZER,
  watches: [
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner' },
    // What a control plane reads of its Cluster: spec (endpoint, paused), infrastructure and
    // control-plane initialization, failure domains, deletion. Not the counters and conditions
    // the Cluster writes after every Machine and control-plane change.
    {
      kind: { group: CORE_GROUP, kind: 'Cluster' },
      by: 'clusterLabel',
      changes: ['spec', 'metadata.deletionTimestamp', 'metadata.annotations', 'status.initialization', 'status.failureDomains'],
    },
    // A deleting control plane waits for the cluster's worker Machines to be gone: their removals
    // wake it (deleteControlPlane), nothing else of theirs does.
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'clusterLabel', on: ['REMOVE'] },
  ],
  createScope: createKcpScope,
  phases: [resolveCluster, reconcileCertificates, reconcileKubeconfig, collectMachines, remediateControlPlane, reconcileReplicas, reportConditions],
  deletePhases: [deleteControlPlane],
  computeStatus: (scope) =>
    kcpStatus({
      ...(scope.clusterName ? { clusterName: scope.clusterName } : {}),
      machines: scope.facts,
      initialized: scope.initialized,
    }),
};
