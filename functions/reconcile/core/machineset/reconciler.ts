import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { conditionPath } from '../../engine/skeleton/watch-fields.js';
import { COUNTED_CONDITIONS } from '../cluster/counters.js';
import { CONDITION_OWNER_REMEDIATED } from '../machinehealthcheck/well-known.js';
import { MISSING_CLONE_REASONS, deleteMachinesPhase, findMachinesPhase, labelMachineSetPhase, ownMachineSetPhase, repairMissingClonesPhase, scalePhase, syncMachinesPhase } from './phases.js';
import { REASON_MACHINE_DELETING, remediateUnhealthyPhase } from './remediation.js';
import { type MachineSetScope, createMachineSetScope } from './scope.js';
import { computeMachineSetStatus, machineSetConditionsPhase } from './status.js';

/** Cluster API's MachineSet finalizer: the deletion waits until its Machines are gone. */
export const MACHINE_SET_FINALIZER = 'cluster.x-k8s.io/machineset';

/**
 * What a MachineSet reads of its Machines: the counted conditions' status, remediation
 * (OwnerRemediated, and whether it is in flight), crash repair (the missing-clone reasons), the
 * scale-down order (the delete-machine annotation, Ready), control and deletion. A Machine's other
 * writes (its phase, addresses, nodeRef, the progress reasons of its conditions) give it nothing
 * to do (ADR 0135).
 */
export const MACHINE_CHANGES_A_MACHINE_SET_READS: readonly string[] = [
  'metadata.labels',
  'metadata.annotations',
  'metadata.ownerReferences',
  'metadata.deletionTimestamp',
  ...[...Object.values(COUNTED_CONDITIONS), CONDITION_OWNER_REMEDIATED].map((type) => conditionPath(type)),
  conditionPath(CONDITION_OWNER_REMEDIATED, REASON_MACHINE_DELETING),
  ...Object.entries(MISSING_CLONE_REASONS).map(([type, reason]) => conditionPath(type, reason)),
];

/**
 * MachineSet: keeps `spec.replicas` Machines, each with its bootstrap config and InfraMachine
 * cloned from the template. Its finalizer holds it until its Machines are gone (each Machine's
 * own finalizer tears down its infrastructure), as Cluster API's does
 * (engine/references/delete-controlled.ts says why).
 */
export const machineSetReconciler: ReconcilerDefinition<MachineSetScope> = {
  kind: { group: CORE_GROUP, kind: 'MachineSet' },
  fillsOwnClusterOwner: true,
  // A scale-up held by the preflight checks goes on when its control plane reports a new version
  // (a watch the provider registry adds for control-plane kinds, contract-watches.ts), else after
  // 15 s, as in Cluster API (ADR 0163).
  watches: [{ kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'owner', changes: MACHINE_CHANGES_A_MACHINE_SET_READS }],
  finalizer: MACHINE_SET_FINALIZER,
  createScope: createMachineSetScope,
  phases: [labelMachineSetPhase, ownMachineSetPhase, findMachinesPhase, syncMachinesPhase, repairMissingClonesPhase, remediateUnhealthyPhase, scalePhase, machineSetConditionsPhase],
  deletePhases: [findMachinesPhase, deleteMachinesPhase],
  computeStatus: computeMachineSetStatus,
};
