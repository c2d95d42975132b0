import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import {
  deleteControlPlanePhase,
  deleteInfrastructurePhase,
  deleteWorkersPhase,
  startClusterDeletionPhase,
} from './delete-phases.js';
import {
  labelClusterPhase,
  persistClusterPhase,
  reconcileControlPlanePhase,
  reconcileDescendantsPhase,
  reconcileInfrastructurePhase,
  summarizeClusterPhase,
} from './phases.js';
import { type ClusterScope, createClusterScope } from './scope.js';
import { beforeClusterDeletePhase } from '../../topology/cluster/delete-phase.js';
import { reconcileTopologyPhase } from '../../topology/cluster/phase.js';
import { computeClusterStatus } from './status.js';
import { EVERYTHING_BUT_FINALIZERS } from '../../engine/skeleton/watch-fields.js';

export const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io';

export const clusterReconciler: ReconcilerDefinition<ClusterScope> = {
  kind: { group: CORE_GROUP, kind: 'Cluster' },
  finalizer: CLUSTER_FINALIZER,
  // Provider kinds (InfraCluster, ControlPlane) are added by the provider registry (contract-watches.ts).
  watches: [
    // Standalone Machines name the Cluster as owner; MachineSet-owned ones reach it through the
    // MachineSet/MachineDeployment status they change (a clusterLabel watch would fire on every Machine write).
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner' },
    { kind: { group: CORE_GROUP, kind: 'MachineSet' }, by: 'clusterLabel', changes: EVERYTHING_BUT_FINALIZERS },
    { kind: { group: CORE_GROUP, kind: 'MachineDeployment' }, by: 'clusterLabel', changes: EVERYTHING_BUT_FINALIZERS },
    // A deleting Cluster waits for its worker Machines (owned by MachineSets, garbage-collected
    // after them) to be gone: their removals wake it (deleteWorkersPhase), nothing else of theirs does.
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'clusterLabel', on: ['REMOVE'] },
    // Topology clusters follow their ClusterClass (a changed class rolls out; a reconciled one unblocks them).
    { kind: { group: CORE_GROUP, kind: 'ClusterClass' }, by: 'referrer', field: 'spec.topology.classRef', changes: ['metadata.generation', 'status.observedGeneration', 'status.conditions'] },
  ],
  createScope: createClusterScope,
  phases: [
    labelClusterPhase,
    reconcileTopologyPhase,
    reconcileInfrastructurePhase,
    reconcileControlPlanePhase,
    reconcileDescendantsPhase,
    persistClusterPhase,
    summarizeClusterPhase,
  ],
  deletePhases: [beforeClusterDeletePhase, startClusterDeletionPhase, deleteWorkersPhase, deleteControlPlanePhase, deleteInfrastructurePhase],
  computeStatus: computeClusterStatus,
};
