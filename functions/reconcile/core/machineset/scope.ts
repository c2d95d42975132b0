import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface MachineSetScope extends Scope {
  /** Machines this MachineSet controls, as they are after this run's creates and deletes. */
  machines: StoredObject[];
  /** The preflight checks that held this run's scale-up (preflight-checks.ts), for the ScalingUp condition. */
  scaleUpBlockedBy?: string[];
}

export function createMachineSetScope(ctx: ReconcileContext, object: StoredObject): MachineSetScope {
  return { ctx, object, conditions: [], machines: [] };
}
