import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';
import type { PoolAddress } from './ip-address-claims.js';
import { startupSecondsOf } from './simulation.js';

export interface InMemoryMachineScope extends Scope {
  /** The Machine that controls this InMemoryMachine. */
  machine?: StoredObject;
  provisioned: boolean;
  /** Addresses its IPAddressClaims got (spec.addressesFromPools), in pool order. */
  poolAddresses?: PoolAddress[];
  /** Seconds from creation until the simulated VM is up. */
  startupSeconds: number;
  /** A control-plane Node's first appearance: how long the kube-apiserver certificate kubeadm issues is valid. */
  certificateValidityDays?: number;
}

export function createInMemoryMachineScope(ctx: ReconcileContext, object: StoredObject): InMemoryMachineScope {
  return { ctx, object, conditions: [], provisioned: false, startupSeconds: startupSecondsOf(object) };
}
