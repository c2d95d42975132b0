/** The kubeadm control-plane provider: KubeadmControlPlane → certificates, kubeconfig, control-plane Machines. */

import { CONTROL_PLANE_GROUP, CORE_GROUP } from '../common/well-known.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { deleteControlPlane } from './delete-phases.js';
import { reportControlPlaneHealth } from './control-plane-health.js';
import { reconcileEtcdMembers } from './etcd-members.js';
import { syncKubeProxyImage } from './kube-proxy.js';
import { updateControlPlane } from './update-control-plane.js';
import {
  collectMachines,
  reconcileCertificates,
  reconcileKubeconfig,
  reconcileReplicas,
  reportConditions,
  resolveCluster,
  syncMachines,
} from './phases.js';
import { remediateControlPlane } from './remediation.js';
import { reconcileCertificateExpiries } from './certificate-expiries.js';
import { conditionPath, valueIsPath } from '../../engine/skeleton/watch-fields.js';
import { CONDITION_NODE_HEALTHY } from '../../core/machine/ready-summary.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED, CONDITION_OWNER_REMEDIATED } from '../../core/machinehealthcheck/well-known.js';
import { preTerminateHookPhase } from './pre-terminate-hook.js';
import { REASON_WAITING_FOR_PRE_TERMINATE_HOOK } from '../../core/machine/delete-phases.js';
import { type KcpScope, createKcpScope } from './scope.js';
import { kcpStatus } from './status.js';

export const KCP_FINALIZER = 'kubeadm.controlplane.cluster.x-k8s.io';

/**
 * What a KubeadmControlPlane reads of its Machines (machine-facts.ts, remediation.ts,
 * orphaned-parts.ts): the spec it compares with its own (version, failure domain, the parts it
 * named), whether the node joined (nodeRef, or the phase Running: machineReady), the health and
 * remediation marks by status, and metadata. Not a Machine's progress through its other phases,
 * its other conditions' reasons, its providerID or its bootstrap data secret.
 */
export const MACHINE_CHANGES_A_CONTROL_PLANE_READS: readonly string[] = [
  'spec.version',
  'spec.failureDomain',
  'spec.infrastructureRef',
  'spec.bootstrap.configRef',
  'status.nodeRef',
  valueIsPath('status.phase', 'Running'),
  ...[CONDITION_HEALTH_CHECK_SUCCEEDED, CONDITION_NODE_HEALTHY, CONDITION_OWNER_REMEDIATED].map((type) => conditionPath(type)),
  // A deleted Machine reaching the control plane's pre-terminate hook (pre-terminate-hook.ts).
  conditionPath('Deleting', REASON_WAITING_FOR_PRE_TERMINATE_HOOK),
  'metadata.labels',
  'metadata.annotations',
  'metadata.ownerReferences',
  'metadata.deletionTimestamp',
];

export const kubeadmControlPlaneReconciler: ReconcilerDefinition<KcpScope> = {
  kind: { group: CONTROL_PLANE_GROUP, kind: 'KubeadmControlPlane' },
  finalizer: KCP_FINALIZER,
  watches: [
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner', changes: MACHINE_CHANGES_A_CONTROL_PLANE_READS },
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
  phases: [
    resolveCluster,
    reconcileCertificates,
    reconcileKubeconfig,
    collectMachines,
    syncMachines,
    reportControlPlaneHealth,
    reconcileEtcdMembers,
    preTerminateHookPhase,
    remediateControlPlane,
    updateControlPlane,
    reconcileReplicas,
    syncKubeProxyImage,
    reportConditions,
    reconcileCertificateExpiries,
  ],
  deletePhases: [deleteControlPlane],
  computeStatus: (scope) =>
    kcpStatus({
      ...(scope.clusterName ? { clusterName: scope.clusterName } : {}),
      machines: scope.facts,
      initialized: scope.initialized,
    }),
};
