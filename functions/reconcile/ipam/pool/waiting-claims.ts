/** Claims of a pool that hold no address yet (the claims a freed address can go to). */

import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting, keyOf, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { poolRefOf } from '../pool-ref.js';
import { GLOBAL_IN_CLUSTER_POOL_KIND, IP_ADDRESS_CLAIM_KIND } from '../well-known.js';

function waitsOn(claim: StoredObject, pool: StoredObject): boolean {
  const ref = poolRefOf(pool);
  return (
    !isDeleting(claim) &&
    !isRecord(claim.status?.addressRef) &&
    stringAt(claim, 'spec', 'poolRef', 'apiGroup') === ref.apiGroup &&
    stringAt(claim, 'spec', 'poolRef', 'kind') === ref.kind &&
    stringAt(claim, 'spec', 'poolRef', 'name') === ref.name
  );
}

/** Oldest first, so a freed address goes to the claim that has waited longest. */
export async function waitingClaims(store: ObjectStore, pool: StoredObject): Promise<ObjectKey[]> {
  const global = pool.kind === GLOBAL_IN_CLUSTER_POOL_KIND.kind;
  const { items } = await store.list({ ...IP_ADDRESS_CLAIM_KIND, ...(global ? {} : { namespace: pool.metadata.namespace }) });
  return items
    .filter((claim) => waitsOn(claim, pool))
    .sort((a, b) => a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp))
    .map(keyOf);
}
