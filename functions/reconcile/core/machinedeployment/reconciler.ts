import { ANNOTATION_REVISION } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { deleteMachineSetsPhase, findMachineSetsPhase, inPlacePhase, labelMachineDeploymentPhase, ownMachineDeploymentPhase, revisionPhase, rolloutPhase } from './phases.js';
import { type MachineDeploymentScope, createMachineDeploymentScope } from './scope.js';
import { computeMachineDeploymentStatus, machineDeploymentConditionsPhase } from './status.js';

/** Cluster API's MachineDeployment finalizer: the deletion waits until its MachineSets are gone. */
export const MACHINE_DEPLOYMENT_FINALIZER = 'cluster.x-k8s.io/machinedeployment';

/**
 * MachineDeployment: one MachineSet per template (its version, bootstrap, infrastructure and
 * failure domain; the rest changes in place); RollingUpdate (maxSurge/maxUnavailable) or
 * OnDelete between them. Its finalizer holds it until its MachineSets are gone, as Cluster
 * API's does (engine/references/delete-controlled.ts says why).
 */
export const machineDeploymentReconciler: ReconcilerDefinition<MachineDeploymentScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineDeployment' },
  // Machine changes reach it through the MachineSet status they change. Not a MachineSet's
  // creation: it creates its MachineSets itself and goes on with them in the same run, and every
  // MachineSet is modified by its own first reconcile (finalizer, status), which wakes it (ADR 0137).
  watches: [{ kind: { group: CORE_GROUP, kind: 'MachineSet' }, by: 'owner', on: ['MODIFY', 'REMOVE'] }],
  finalizer: MACHINE_DEPLOYMENT_FINALIZER,
  fillsOwnClusterOwner: true,
  ignoresOwnAnnotations: [ANNOTATION_REVISION],
  createScope: createMachineDeploymentScope,
  phases: [labelMachineDeploymentPhase, ownMachineDeploymentPhase, findMachineSetsPhase, inPlacePhase, rolloutPhase, revisionPhase, machineDeploymentConditionsPhase],
  deletePhases: [findMachineSetsPhase, deleteMachineSetsPhase],
  computeStatus: computeMachineDeploymentStatus,
};
