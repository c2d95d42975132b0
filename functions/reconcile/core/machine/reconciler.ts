import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED } from '../machinehealthcheck/well-known.js';
import {
  deleteBootstrapPhase,
  deleteInfrastructurePhase,
  deletionDonePhase,
  startDeletionPhase,
  waitForPreDrainHooksPhase,
  waitForPreTerminateHooksPhase,
} from './delete-phases.js';
import {
  reconcileBootstrapPhase,
  reconcileClusterPhase,
  reconcileInfrastructurePhase,
  reconcileNodePhase,
  summarizeMachinePhase,
} from './phases.js';
import { type MachineScope, createMachineScope } from './scope.js';
import { deleteNodePhase } from './node-deletion.js';
import { drainNodePhase } from './drain-phase.js';
import { waitForVolumeDetachPhase } from './volume-detach-phase.js';
import { computeMachineStatus } from './status.js';
import { certificatesExpiryPhase } from './certificates-expiry.js';

export const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';

export const machineReconciler: ReconcilerDefinition<MachineScope> = {
  kind: { group: CORE_GROUP, kind: 'Machine' },
  fillsOwnClusterOwner: true,
  finalizer: MACHINE_FINALIZER,
  // The providerID copied from the InfraMachine: the node phase after it already used it.
  fillsOwnSpec: ['spec.providerID'],
  // Ready summarises what a MachineHealthCheck and the readiness gates' controllers write (ADR 0173).
  readsOwnConditions: { types: [CONDITION_HEALTH_CHECK_SUCCEEDED], typesListedAt: 'spec.readinessGates' },
  // Provider kinds (InfraMachine, BootstrapConfig) are added by the provider registry (contract-watches.ts).
  // No Cluster watch: Cluster status changes with every Machine, which would make each change O(Machines).
  // A MachineDeployment's annotations: a new revision there makes the Machines of its older
  // MachineSets outdated, and their Nodes are tainted (outdated-revision.ts). Cluster API wakes
  // Machines on any change of their MachineSet or MachineDeployment.
  watches: [{ kind: { group: CORE_GROUP, kind: 'MachineDeployment' }, by: 'clusterLabel', on: ['MODIFY'], changes: ['metadata.annotations'] }],
  createScope: createMachineScope,
  phases: [
    reconcileClusterPhase,
    reconcileBootstrapPhase,
    certificatesExpiryPhase,
    reconcileInfrastructurePhase,
    reconcileNodePhase,
    summarizeMachinePhase,
  ],
  deletePhases: [
    startDeletionPhase,
    waitForPreDrainHooksPhase,
    drainNodePhase,
    waitForVolumeDetachPhase,
    waitForPreTerminateHooksPhase,
    deleteInfrastructurePhase,
    deleteBootstrapPhase,
    deleteNodePhase,
    deletionDonePhase,
  ],
  computeStatus: computeMachineStatus,
};
