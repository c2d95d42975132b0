/**
 * ClusterResourceSet (addons.cluster.x-k8s.io, Cluster API's core manager): applies ConfigMap and
 * Secret resources to the workload clusters it selects through the WorkloadCluster port and records
 * what it applied in each Cluster's ClusterResourceSetBinding.
 */
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { CLUSTER_RESOURCE_SET_FINALIZER } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import { ADDONS_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import type { ReconcileContext, ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { applyToClustersPhase } from './apply-phase.js';
import { deleteBindingsOfGoneClustersPhase, leaveBindingsPhase } from './binding-cleanup.js';
import { type ClusterResourceSetScope, createClusterResourceSetScope } from './scope.js';

export const clusterResourceSetReconciler: ReconcilerDefinition<ClusterResourceSetScope> = {
  kind: { group: ADDONS_GROUP, kind: 'ClusterResourceSet' },
  finalizer: CLUSTER_RESOURCE_SET_FINALIZER,
  watches: [
    // clusterToClusterResourceSet: a new, relabelled, initialized or removed Cluster.
    {
      kind: { group: 'cluster.x-k8s.io', kind: 'Cluster' },
      by: 'namespace',
      changes: ['metadata.labels', 'metadata.deletionTimestamp', 'status.initialization.controlPlaneInitialized'],
    },
    // resourceToClusterResourceSet: a resource created or with new data (Reconcile re-applies on a
    // new hash). Not a removal: Cluster API's ResourceCreateOrUpdate predicate drops deletes, and
    // a removed resource changes nothing already applied.
    { kind: { group: '', kind: 'ConfigMap' }, by: 'namespace', on: ['INSERT', 'MODIFY'], changes: ['data'] },
    { kind: { group: '', kind: 'Secret' }, by: 'namespace', on: ['INSERT', 'MODIFY'], changes: ['data', 'type'] },
  ],
  createScope: (ctx: ReconcileContext, object: StoredObject) => createClusterResourceSetScope(ctx, object),
  phases: [applyToClustersPhase, deleteBindingsOfGoneClustersPhase],
  deletePhases: [leaveBindingsPhase],
  computeStatus: () => ({ fields: {} }),
};
