import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface MachineSetScope extends Scope {
  /** Machines this MachineSet controls, as they are after this run's creates and deletes. */
  machines: StoredObject[];
}

export function createMachineSetScope(ctx: ReconcileContext, object: StoredObject): MachineSetScope {
  return { ctx, object, conditions: [], machines: [] };
}
