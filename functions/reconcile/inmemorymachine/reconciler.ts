import { INFRASTRUCTURE_GROUP } from '../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../skeleton/types.js';
import { ownerMachinePhase, provisionPhase } from './phases.js';
import { type InMemoryMachineScope, createInMemoryMachineScope } from './scope.js';
import { computeInMemoryMachineStatus } from './status.js';

/**
 * InMemoryMachine: a simulated VM that comes up `spec.startupSeconds` (default 2) after creation
 * once its Machine has bootstrap data. No finalizer: deleting it removes it at once.
 * It polls for the Machine's bootstrap data (no watch maps a Machine to the object it references).
 */
export const inMemoryMachineReconciler: ReconcilerDefinition<InMemoryMachineScope> = {
  kind: { group: INFRASTRUCTURE_GROUP, kind: 'InMemoryMachine' },
  watches: [],
  createScope: createInMemoryMachineScope,
  phases: [ownerMachinePhase, provisionPhase],
  deletePhases: [],
  computeStatus: computeInMemoryMachineStatus,
};
