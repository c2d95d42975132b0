import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { LABEL_CLUSTER_NAME } from '../../../../shared/contracts/object.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import {
  deleteControlPlanePhase,
  deleteInfrastructurePhase,
  deleteWorkersPhase,
  startClusterDeletionPhase,
} from './delete-phases.js';
import {
  labelClusterPhase,
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

/** What a Cluster reads of an object: everything it is told except its status and finalizers. */
const METADATA_AND_SPEC = EVERYTHING_BUT_FINALIZERS.filter((path) => path !== 'status');

/**
 * What a Cluster reads of a MachineSet: its spec (desired replicas, the templates a topology keeps
 * while it rolls away from them), its metadata, and its replica counters, which the MachineSet
 * counts over its Machines exactly as the Cluster counts its workers (countMachines): they move
 * when a counted Machine does. Its conditions and other status do not, and are not read.
 */
export const MACHINE_SET_CHANGES_A_CLUSTER_READS: readonly string[] = [
  ...METADATA_AND_SPEC,
  'status.replicas',
  'status.readyReplicas',
  'status.availableReplicas',
  'status.upToDateReplicas',
];

/**
 * What a Cluster reads of a MachineDeployment: its spec (desired replicas, the version a topology
 * upgrade sequences) and metadata. Its status sums its MachineSets' counters, which wake the
 * Cluster themselves, and is not read. Nor are its ownerReferences: the Cluster finds its
 * MachineDeployments by label, and the one reference that concerns it is to itself, which the
 * MachineDeployment adds on its first reconcile (ADR 0151) and a topology already made it with.
 */
export const MACHINE_DEPLOYMENT_CHANGES_A_CLUSTER_READS: readonly string[] = METADATA_AND_SPEC.filter((path) => path !== 'metadata.ownerReferences');

export const clusterReconciler: ReconcilerDefinition<ClusterScope> = {
  kind: { group: CORE_GROUP, kind: 'Cluster' },
  finalizer: CLUSTER_FINALIZER,
  // labelClusterPhase names the Cluster in its own label; the infrastructure phase copies the
  // endpoint; both are written once, with the status (computeClusterStatus reads desired).
  fillsOwnLabels: [LABEL_CLUSTER_NAME],
  fillsOwnSpec: ['spec.controlPlaneEndpoint'],
  // Provider kinds (InfraCluster, ControlPlane) are added by the provider registry (contract-watches.ts).
  watches: [
    // Standalone Machines name the Cluster as owner; MachineSet-owned ones reach it through the
    // MachineSet/MachineDeployment status they change (a clusterLabel watch would fire on every Machine write).
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner' },
    { kind: { group: CORE_GROUP, kind: 'MachineSet' }, by: 'clusterLabel', changes: MACHINE_SET_CHANGES_A_CLUSTER_READS },
    { kind: { group: CORE_GROUP, kind: 'MachineDeployment' }, by: 'clusterLabel', changes: MACHINE_DEPLOYMENT_CHANGES_A_CLUSTER_READS },
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
    summarizeClusterPhase,
  ],
  deletePhases: [beforeClusterDeletePhase, startClusterDeletionPhase, deleteWorkersPhase, deleteControlPlanePhase, deleteInfrastructurePhase],
  computeStatus: computeClusterStatus,
};
