/** Labels and annotations of Cluster API's managed topology (clusterclass-runtime-sdk.md §3). */

/** Declared with the other well-known annotations; re-exported for the topology code. */
export { ANNOTATION_PENDING_HOOKS } from '../object.js';

export const LABEL_TOPOLOGY_OWNED = 'topology.cluster.x-k8s.io/owned';
export const LABEL_TOPOLOGY_DEPLOYMENT_NAME = 'topology.cluster.x-k8s.io/deployment-name';
export { LABEL_CONTROL_PLANE } from '../object.js';
export const ANNOTATION_UPGRADE_CONCURRENCY = 'topology.cluster.x-k8s.io/upgrade-concurrency';
export const ANNOTATION_DEFER_UPGRADE = 'topology.cluster.x-k8s.io/defer-upgrade';
export const ANNOTATION_HOLD_UPGRADE_SEQUENCE = 'topology.cluster.x-k8s.io/hold-upgrade-sequence';
export const ANNOTATION_UPGRADE_STEP = 'topology.internal.cluster.x-k8s.io/upgrade-step';

/** TopologyReconciled reasons (api/core/v1beta2 cluster_types.go). */
export const TOPOLOGY_RECONCILED = 'TopologyReconciled';
export const TopologyReason = {
  Succeeded: 'ReconcileSucceeded',
  Failed: 'ReconcileFailed',
  ClusterClassNotReconciled: 'ClusterClassNotReconciled',
  ClusterCreating: 'ClusterCreating',
  ClusterUpgrading: 'ClusterUpgrading',
  MachineDeploymentsUpgradeDeferred: 'MachineDeploymentsUpgradeDeferred',
  Deleting: 'Deleting',
  Paused: 'Paused',
} as const;
