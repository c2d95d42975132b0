import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { findMachinesPhase, labelMachineSetPhase, repairMissingClonesPhase, scalePhase } from './phases.js';
import { remediateUnhealthyPhase } from './remediation.js';
import { type MachineSetScope, createMachineSetScope } from './scope.js';
import { computeMachineSetStatus, machineSetConditionsPhase } from './status.js';

/**
 * MachineSet: keeps `spec.replicas` Machines, each with its bootstrap config and InfraMachine
 * cloned from the template. No finalizer: when it goes, its Machines are garbage-collected
 * (and each Machine's finalizer tears down its infrastructure).
 */
export const machineSetReconciler: ReconcilerDefinition<MachineSetScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineSet' },
  watches: [{ kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner' }],
  createScope: createMachineSetScope,
  phases: [labelMachineSetPhase, findMachinesPhase, repairMissingClonesPhase, remediateUnhealthyPhase, scalePhase, machineSetConditionsPhase],
  deletePhases: [],
  computeStatus: computeMachineSetStatus,
};
