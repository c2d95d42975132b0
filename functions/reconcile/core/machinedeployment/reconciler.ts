import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { findMachineSetsPhase, labelMachineDeploymentPhase, rolloutPhase } from './phases.js';
import { type MachineDeploymentScope, createMachineDeploymentScope } from './scope.js';
import { computeMachineDeploymentStatus, machineDeploymentConditionsPhase } from './status.js';

/**
 * MachineDeployment: one MachineSet per template hash; RollingUpdate (maxSurge/maxUnavailable)
 * or OnDelete between them. No finalizer: its MachineSets are garbage-collected with it.
 */
export const machineDeploymentReconciler: ReconcilerDefinition<MachineDeploymentScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineDeployment' },
  // Machine changes reach it through the MachineSet status they change.
  watches: [{ kind: { group: CORE_GROUP, kind: 'MachineSet' }, by: 'owner' }],
  createScope: createMachineDeploymentScope,
  phases: [labelMachineDeploymentPhase, findMachineSetsPhase, rolloutPhase, machineDeploymentConditionsPhase],
  deletePhases: [],
  computeStatus: computeMachineDeploymentStatus,
};
