import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface MachineDeploymentScope extends Scope {
  /** The `machine-template-hash` label of the MachineSet that carries the intent (rollout-after.ts). */
  hash: string;
  /** `spec.rollout.after` is still ahead: seconds until it comes. */
  rolloutAfterSeconds?: number;
  /** MachineSets this MachineDeployment controls, after this run's changes. */
  machineSets: StoredObject[];
  /** Machines of those MachineSets (as listed at the start of the run). */
  machines: StoredObject[];
}

export function createMachineDeploymentScope(ctx: ReconcileContext, object: StoredObject): MachineDeploymentScope {
  return { ctx, object, conditions: [], hash: '', machineSets: [], machines: [] };
}
