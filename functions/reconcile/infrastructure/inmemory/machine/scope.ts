import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';
import type { PoolAddress } from './ip-address-claims.js';

export interface InMemoryMachineScope extends Scope {
  /** The Machine that controls this InMemoryMachine. */
  machine?: StoredObject;
  provisioned: boolean;
  /** Addresses its IPAddressClaims got (spec.addressesFromPools), in pool order. */
  poolAddresses?: PoolAddress[];
}

export function createInMemoryMachineScope(ctx: ReconcileContext, object: StoredObject): InMemoryMachineScope {
  return { ctx, object, conditions: [], provisioned: false };
}
