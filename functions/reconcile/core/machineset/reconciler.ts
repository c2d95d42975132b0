import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { deleteMachinesPhase, findMachinesPhase, labelMachineSetPhase, repairMissingClonesPhase, scalePhase } from './phases.js';
import { remediateUnhealthyPhase } from './remediation.js';
import { type MachineSetScope, createMachineSetScope } from './scope.js';
import { computeMachineSetStatus, machineSetConditionsPhase } from './status.js';

/** Cluster API's MachineSet finalizer: the deletion waits until its Machines are gone. */
export const MACHINE_SET_FINALIZER = 'cluster.x-k8s.io/machineset';

/**
 * MachineSet: keeps `spec.replicas` Machines, each with its bootstrap config and InfraMachine
 * cloned from the template. Its finalizer holds it until its Machines are gone (each Machine's
 * own finalizer tears down its infrastructure), as Cluster API's does
 * (engine/references/delete-controlled.ts says why).
 */
export const machineSetReconciler: ReconcilerDefinition<MachineSetScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineSet' },
  watches: [{ kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner' }],
  finalizer: MACHINE_SET_FINALIZER,
  createScope: createMachineSetScope,
  phases: [labelMachineSetPhase, findMachinesPhase, repairMissingClonesPhase, remediateUnhealthyPhase, scalePhase, machineSetConditionsPhase],
  deletePhases: [findMachinesPhase, deleteMachinesPhase],
  computeStatus: computeMachineSetStatus,
};
