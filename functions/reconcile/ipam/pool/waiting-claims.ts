/** Claims of a pool that hold no address yet (the claims a freed address can go to). */

import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, keyOf, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { poolRefOf } from '../pool-ref.js';
import { GLOBAL_IN_CLUSTER_POOL_KIND, IP_ADDRESS_CLAIM_KIND } from '../well-known.js';

function waitsOn(claim: StoredObject, pool: StoredObject, holders: ReadonlySet<string>): boolean {
  const ref = poolRefOf(pool);
  return (
    !isDeleting(claim) &&
    !holders.has(claim.metadata.uid) &&
    !isRecord(claim.status?.addressRef) &&
    stringAt(claim, 'spec', 'poolRef', 'apiGroup') === ref.apiGroup &&
    stringAt(claim, 'spec', 'poolRef', 'kind') === ref.kind &&
    stringAt(claim, 'spec', 'poolRef', 'name') === ref.name
  );
}

/**
 * Oldest first, so a freed address goes to the claim that has waited longest. A claim that holds
 * a reservation but has not yet recorded its addressRef is not waiting: waking it instead of a
 * claim that is would lose the freed address's wake-up.
 */
export async function waitingClaims(store: ObjectStore, pool: StoredObject, reservations: readonly StoredObject[]): Promise<ObjectKey[]> {
  const holders = new Set(reservations.flatMap((r) => r.metadata.ownerReferences?.map((ref) => ref.uid) ?? []));
  const global = pool.kind === GLOBAL_IN_CLUSTER_POOL_KIND.kind;
  const { items } = await store.list({ ...IP_ADDRESS_CLAIM_KIND, ...(global ? {} : { namespace: pool.metadata.namespace }) });
  return items
    .filter((claim) => waitsOn(claim, pool, holders))
    .sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp))
    .map(keyOf);
}
