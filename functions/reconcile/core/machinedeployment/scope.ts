import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface MachineDeploymentScope extends Scope {
  hash: string;
  /** MachineSets this MachineDeployment controls, after this run's changes. */
  machineSets: StoredObject[];
  /** Machines of those MachineSets (as listed at the start of the run). */
  machines: StoredObject[];
}

export function createMachineDeploymentScope(ctx: ReconcileContext, object: StoredObject): MachineDeploymentScope {
  return { ctx, object, conditions: [], hash: '', machineSets: [], machines: [] };
}
