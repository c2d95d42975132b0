import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';

export interface InMemoryMachineScope extends Scope {
  /** The Machine that controls this InMemoryMachine. */
  machine?: StoredObject;
  provisioned: boolean;
}

export function createInMemoryMachineScope(ctx: ReconcileContext, object: StoredObject): InMemoryMachineScope {
  return { ctx, object, conditions: [], provisioned: false };
}
