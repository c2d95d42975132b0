import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { IPAddressClaim } from '../../../../shared/contracts/schemas/ipam/ip-address.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

export interface ClaimScope extends Scope {
  /** The claim as its schema reads it (undefined when the stored object does not parse). */
  claim: IPAddressClaim | undefined;
  /** The name of the IPAddress this claim holds, once there is one. */
  addressName?: string;
}

export function createClaimScope(ctx: ReconcileContext, object: StoredObject, claim: IPAddressClaim | undefined): ClaimScope {
  return { ctx, object, conditions: [], claim };
}
