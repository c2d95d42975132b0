/**
 * IPAddressClaim phases for the in-cluster pools (IC `pkg/ipamutil/reconciler.go`,
 * `internal/controllers/ipaddressclaim.go`), with the allocation made race-free by reservations.
 */

import { isDeleting, keyOf, type StoredObject } from '../../../../shared/contracts/object.js';
import { inClusterIPPoolSpecSchema } from '../../../../shared/contracts/schemas/ipam/in-cluster-ip-pool.js';
import { isAlreadyExists, isNotFound } from '../../../../shared/errors/index.js';
import { formatIp, type Ip, parseIp } from '../../../../shared/ipam/ip.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { analysePool } from '../../../../shared/ipam/pool-spec.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import { CLUSTER_KIND, isPaused, owningClusterName } from '../../engine/skeleton/pause.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { isInClusterPoolRef, poolKey, poolRefOf } from '../pool-ref.js';
import { reservationOfClaim, reservationsOfPool, reserveAddress, reservedAddress, reserveLowestFree } from '../reservations.js';
import {
  CONDITION_READY,
  FINALIZER_PROTECT_ADDRESS,
  IP_ADDRESS_KIND,
  REASON_ALLOCATED,
  REASON_ALLOCATION_FAILED,
  REASON_POOL_EXHAUSTED,
  REASON_POOL_NOT_READY,
} from '../well-known.js';
import { belongsToClaim, ipAddressFor } from './ip-address-object.js';
import type { ClaimScope } from './scope.js';

/** A claim waiting on an exhausted pool is also woken by the pool when an address frees up. */
export const EXHAUSTED_REQUEUE_SECONDS = 60;
/** A claim waiting for its pool to appear is woken by the pool's first reconcile. */
export const POOL_MISSING_REQUEUE_SECONDS = 60;

function notReady(s: ClaimScope, reason: string, message: string, requeueAfterSeconds?: number): PhaseResult {
  s.conditions.push({ type: CONDITION_READY, status: 'False', reason, message });
  return { stop: true, ...(requeueAfterSeconds ? { requeueAfterSeconds } : {}) };
}

function addressKey(s: ClaimScope) {
  return { ...IP_ADDRESS_KIND, namespace: s.object.metadata.namespace, name: s.object.metadata.name };
}

/** Claims of pools this provider does not serve are left alone, with a condition that says so. */
export function servedPoolPhase(s: ClaimScope): PhaseResult | undefined {
  if (!s.claim) return notReady(s, REASON_ALLOCATION_FAILED, 'the claim does not match the IPAddressClaim schema');
  const ref = s.claim.spec.poolRef;
  if (!isInClusterPoolRef(ref)) {
    return notReady(s, REASON_POOL_NOT_READY, `no IPAM provider in this control plane serves ${ref.kind}.${ref.apiGroup}`);
  }
  return undefined;
}

/**
 * Skip while the claim's Cluster is paused. The skeleton already pauses every object whose
 * Cluster has `spec.paused` (ADR 0146); the in-cluster IPAM provider also skips for the Cluster's
 * paused annotation. The Cluster is the one the skeleton read, from the reconcile's cache.
 */
export async function clusterPausedPhase(s: ClaimScope): Promise<PhaseResult | undefined> {
  const name = owningClusterName(s.object);
  if (!name) return undefined;
  const cluster = await s.ctx.store.get({ ...CLUSTER_KIND, namespace: s.object.metadata.namespace, name });
  if (cluster && isPaused(cluster)) return notReady(s, REASON_POOL_NOT_READY, `Cluster ${name} is paused`);
  return undefined;
}

/** The IPAddress already made for this claim: nothing else to do but hold its reservation. */
export async function existingAddressPhase(s: ClaimScope): Promise<PhaseResult | undefined> {
  const address = await s.ctx.store.get(addressKey(s));
  if (!address) return undefined;
  if (!belongsToClaim(address, s.object)) {
    return notReady(s, REASON_ALLOCATION_FAILED, `IPAddress ${address.metadata.name} exists and was not allocated for this claim`);
  }
  const conflict = await reserveMovedAddress(s, address);
  if (conflict) return notReady(s, REASON_ALLOCATION_FAILED, conflict);
  s.addressName = address.metadata.name;
  s.conditions.push({ type: CONDITION_READY, status: 'True', reason: REASON_ALLOCATED });
  return { stop: true };
}

/**
 * An IPAddress without the claim's reservation came from elsewhere: `clusterctl move` (or a
 * restore) brings the claim and its IPAddress, but reservations are capless's own bookkeeping,
 * neither served nor moved (ADR 0070). Its address is reserved again, so the pool counts it and
 * hands it to no other claim; another claim holding it is a conflict, said on the claim.
 */
async function reserveMovedAddress(s: ClaimScope, address: StoredObject): Promise<string | undefined> {
  if (await reservationOfClaim(s.ctx.store, s.object)) return undefined;
  const ref = s.claim?.spec.poolRef;
  const text = stringAt(address, 'spec', 'address');
  const ip = text === undefined ? undefined : parseIp(text);
  const pool = ref && (await s.ctx.store.get(poolKey(ref, s.object.metadata.namespace)));
  if (!pool || !ip) return undefined;
  const outcome = await reserveAddress(s.ctx.store, pool, ip, s.object);
  return outcome.reserved ? undefined : `IPAddress ${address.metadata.name} holds ${formatIp(ip)}, which ${pool.kind} ${pool.metadata.name} has reserved for claim ${outcome.holder}`;
}

/**
 * Reserve an address (or find the one an interrupted run reserved), then create the IPAddress
 * named after the claim. Each step is idempotent, so a crash between them is repaired next run.
 */
export async function allocatePhase(s: ClaimScope): Promise<PhaseResult | undefined> {
  const ref = s.claim?.spec.poolRef;
  if (!ref) return { stop: true };
  const pool = await s.ctx.store.get(poolKey(ref, s.object.metadata.namespace));
  if (!pool) return notReady(s, REASON_POOL_NOT_READY, `${ref.kind} ${ref.name} not found`, POOL_MISSING_REQUEUE_SECONDS);
  if (isDeleting(pool)) return notReady(s, REASON_POOL_NOT_READY, `${ref.kind} ${ref.name} is being deleted`);
  if (isPaused(pool)) return notReady(s, REASON_POOL_NOT_READY, `${ref.kind} ${ref.name} is paused`);
  const spec = inClusterIPPoolSpecSchema.safeParse(pool.spec);
  const analysis = spec.success ? analysePool(spec.data) : undefined;
  if (!spec.success || !analysis?.ok) return notReady(s, REASON_ALLOCATION_FAILED, `${ref.kind} ${ref.name} has an invalid spec`);

  let address: Ip | undefined;
  const held = await reservationOfClaim(s.ctx.store, s.object);
  if (held) address = reservedAddress(held);
  if (!address) {
    const outcome = await reserveLowestFree(s.ctx.store, pool, analysis.set, s.object, await reservationsOfPool(s.ctx.store, pool));
    if (!outcome.reserved) {
      return notReady(s, REASON_POOL_EXHAUSTED, `${ref.kind} ${ref.name} has no free address`, EXHAUSTED_REQUEUE_SECONDS);
    }
    address = outcome.address;
  }

  const wanted = ipAddressFor(s.object, pool, poolRefOf(pool), { address, prefix: spec.data.prefix, gateway: analysis.gateway });
  try {
    await s.ctx.store.create(wanted);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    return existingAddressPhase(s);
  }
  s.addressName = wanted.metadata.name;
  s.conditions.push({ type: CONDITION_READY, status: 'True', reason: REASON_ALLOCATED });
  return undefined;
}

async function deleteOwnAddress(s: ClaimScope, address: StoredObject): Promise<void> {
  const released = await updateFresh(s.ctx.store, address, (current) => {
    const finalizers = current.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_PROTECT_ADDRESS)) return undefined;
    return { ...current, metadata: { ...current.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER_PROTECT_ADDRESS) } };
  });
  if (!released) return;
  try {
    await s.ctx.store.delete(keyOf(released));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Release: the IPAddress goes first, then the reservation, so an address is free only once unused. */
export async function releasePhase(s: ClaimScope): Promise<PhaseResult | undefined> {
  const address = await s.ctx.store.get(addressKey(s));
  if (address && belongsToClaim(address, s.object)) await deleteOwnAddress(s, address);
  const held = await reservationOfClaim(s.ctx.store, s.object);
  if (held) {
    try {
      await s.ctx.store.delete(keyOf(held));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return undefined;
}
