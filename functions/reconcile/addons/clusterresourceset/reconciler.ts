/**
 * ClusterResourceSet (addons.cluster.x-k8s.io, Cluster API's core manager): applies ConfigMap and
 * Secret resources to the workload clusters it selects through the WorkloadCluster port and records
 * what it applied in each Cluster's ClusterResourceSetBinding.
 */
import { BOOTSTRAP_TOKEN_SECRET_TYPE, CLUSTER_SECRET_TYPE, type StoredObject } from '../../../../shared/contracts/object.js';
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
    // clusterToClusterResourceSet: a new, relabelled, initialized or removed Cluster wakes the sets
    // whose selector matches it (before or after a relabel).
    {
      kind: { group: 'cluster.x-k8s.io', kind: 'Cluster' },
      by: 'referrer',
      field: 'spec.clusterSelector',
      changes: ['metadata.labels', 'metadata.deletionTimestamp', 'status.initialization.controlPlaneInitialized'],
    },
    // resourceToClusterResourceSetFunc: a resource created or with new data (Reconcile re-applies
    // on a new hash) wakes the sets that own it or, if none does, that list it in `spec.resources`.
    // Not a removal: Cluster API's ResourceCreateOrUpdate predicate drops deletes, and a removed
    // resource changes nothing already applied.
    { kind: { group: '', kind: 'ConfigMap' }, by: 'referrer', field: 'spec.resources', on: ['INSERT', 'MODIFY'], changes: ['data'] },
    // Nor a Secret of a type only controllers write (ADR 0142): a set applies only Secrets of its
    // own type and reports any other it lists on its next try, so these cannot give it work.
    {
      kind: { group: '', kind: 'Secret' },
      by: 'referrer',
      field: 'spec.resources',
      on: ['INSERT', 'MODIFY'],
      changes: ['data', 'type'],
      ignore: { path: 'type', values: [CLUSTER_SECRET_TYPE, BOOTSTRAP_TOKEN_SECRET_TYPE] },
    },
  ],
  createScope: (ctx: ReconcileContext, object: StoredObject) => createClusterResourceSetScope(ctx, object),
  phases: [applyToClustersPhase, deleteBindingsOfGoneClustersPhase],
  deletePhases: [leaveBindingsPhase],
  computeStatus: () => ({ fields: {} }),
};
