/**
 * Address reservations: the one conditional write that hands out an address. Each allocated
 * (pool, address) is an IPAddressReservation item whose name is derived from the pool and the
 * address, created with create-if-absent (`ObjectStore.create` fails with AlreadyExists on a
 * duplicate: a conditional put on DynamoDB). Two claims racing for one address on any number of
 * function instances: exactly one create succeeds; the other moves on to the next free address.
 * docs/adr/0070-ip-address-reservations.md.
 */

import { stringAt } from '../../../shared/contracts/json.js';
import { type KubeObject, ownerReferenceTo, type StoredObject, keyOf } from '../../../shared/contracts/object.js';
import type { ContractRef } from '../../../shared/contracts/schemas/common/references.js';
import { isAlreadyExists } from '../../../shared/errors/index.js';
import { formatIp, type Ip, parseIp } from '../../../shared/ipam/ip.js';
import { type IpRangeSet, lowestFree } from '../../../shared/ipam/ip-ranges.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { shortHash } from '../engine/hashing/stable-hash.js';
import { poolRefOf } from './pool-ref.js';
import {
  GLOBAL_IN_CLUSTER_POOL_KIND,
  LABEL_RESERVATION_POOL_KIND,
  LABEL_RESERVATION_POOL_NAME,
  RESERVATION_API_VERSION,
  RESERVATION_KIND,
} from './well-known.js';

const MAX_NAME = 253;
const MAX_LABEL_VALUE = 63;

function addressToken(ip: Ip): string {
  return ip.family === 4 ? formatIp(ip) : ip.value.toString(16).padStart(32, '0');
}

/** Deterministic per (pool kind, pool name, address): the key the conditional write is on. */
export function reservationName(pool: ContractRef, ip: Ip): string {
  const tag = pool.kind === GLOBAL_IN_CLUSTER_POOL_KIND.kind ? 'gic' : 'ic';
  const readable = `${tag}.${addressToken(ip)}.${pool.name}`;
  return readable.length <= MAX_NAME ? readable : `${tag}.${addressToken(ip)}.h-${shortHash(pool.name)}`;
}

function poolNameLabel(name: string): string {
  return name.length <= MAX_LABEL_VALUE ? name : `h-${shortHash(name)}`;
}

function samePool(reservation: StoredObject, pool: ContractRef): boolean {
  return (
    stringAt(reservation, 'spec', 'poolRef', 'kind') === pool.kind &&
    stringAt(reservation, 'spec', 'poolRef', 'name') === pool.name &&
    stringAt(reservation, 'spec', 'poolRef', 'apiGroup') === pool.apiGroup
  );
}

export function reservedAddress(reservation: StoredObject): Ip | undefined {
  const text = stringAt(reservation, 'spec', 'address');
  return text === undefined ? undefined : parseIp(text);
}

export function isReservationOf(reservation: StoredObject, claim: StoredObject): boolean {
  return (reservation.metadata.ownerReferences ?? []).some((ref) => ref.uid === claim.metadata.uid);
}

/** Every reservation of the pool (stored in the pool's namespace). */
export async function reservationsOfPool(store: ObjectStore, pool: StoredObject): Promise<StoredObject[]> {
  const ref = poolRefOf(pool);
  const { items } = await store.list({
    ...RESERVATION_KIND,
    namespace: pool.metadata.namespace,
    labelSelector: [
      { key: LABEL_RESERVATION_POOL_KIND, operator: 'Equals', values: [pool.kind] },
      { key: LABEL_RESERVATION_POOL_NAME, operator: 'Equals', values: [poolNameLabel(pool.metadata.name)] },
    ],
  });
  return items.filter((item) => samePool(item, ref));
}

/** The reservation a claim already holds (a run that crashed after reserving finds it here). */
export async function reservationOfClaim(store: ObjectStore, claim: StoredObject): Promise<StoredObject | undefined> {
  const owned = await store.listByOwner(claim.metadata.uid);
  return owned.find((o) => o.kind === RESERVATION_KIND.kind && o.apiVersion === RESERVATION_API_VERSION);
}

function reservationFor(pool: StoredObject, ip: Ip, claim: StoredObject): KubeObject {
  const ref = poolRefOf(pool);
  return {
    apiVersion: RESERVATION_API_VERSION,
    kind: RESERVATION_KIND.kind,
    metadata: {
      name: reservationName(ref, ip),
      namespace: pool.metadata.namespace,
      labels: { [LABEL_RESERVATION_POOL_KIND]: pool.kind, [LABEL_RESERVATION_POOL_NAME]: poolNameLabel(pool.metadata.name) },
      // The claim owns it: if the claim ever goes without releasing, garbage collection does.
      ownerReferences: [ownerReferenceTo(claim)],
    },
    spec: {
      poolRef: ref,
      address: formatIp(ip),
      claimRef: { namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid },
    },
  };
}

export type ReserveOutcome = { reserved: true; reservation: StoredObject; address: Ip } | { reserved: false };

/**
 * Reserves one given address for the claim (create-if-absent); when another claim holds it, says
 * which. Reserving it again for the same claim is a no-op.
 */
export async function reserveAddress(
  store: ObjectStore,
  pool: StoredObject,
  ip: Ip,
  claim: StoredObject,
): Promise<{ reserved: true } | { reserved: false; holder: string }> {
  const wanted = reservationFor(pool, ip, claim);
  try {
    await store.create(wanted);
    return { reserved: true };
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    const holder = await store.get(keyOf(wanted));
    if (!holder || isReservationOf(holder, claim)) return { reserved: true };
    return { reserved: false, holder: stringAt(holder, 'spec', 'claimRef', 'name') ?? holder.metadata.name };
  }
}

/**
 * Reserves the lowest address of `set` that no reservation holds. Each candidate costs one
 * create-if-absent; one lost to another claim is skipped. Ends when a create succeeds or every
 * address has been found taken.
 */
export async function reserveLowestFree(
  store: ObjectStore,
  pool: StoredObject,
  set: IpRangeSet,
  claim: StoredObject,
  existing: readonly StoredObject[],
): Promise<ReserveOutcome> {
  const taken = new Set<bigint>();
  for (const reservation of existing) {
    const ip = reservedAddress(reservation);
    if (ip && ip.family === set.family) taken.add(ip.value);
  }
  for (let candidate = lowestFree(set, taken); candidate; candidate = lowestFree(set, taken)) {
    const wanted = reservationFor(pool, candidate, claim);
    try {
      return { reserved: true, reservation: await store.create(wanted), address: candidate };
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      const holder = await store.get(keyOf(wanted));
      if (holder && isReservationOf(holder, claim)) return { reserved: true, reservation: holder, address: candidate };
      taken.add(candidate.value);
    }
  }
  return { reserved: false };
}
