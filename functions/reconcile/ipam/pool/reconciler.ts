/**
 * InClusterIPPool and GlobalInClusterIPPool: counts in status, waiting claims woken when an
 * address is free, and deletion held (finalizer ProtectPool) while any address is allocated.
 */

import { isDeleting, type GroupKind, type StoredObject } from '../../../../shared/contracts/object.js';
import { inClusterIPPoolSpecSchema } from '../../../../shared/contracts/schemas/ipam/in-cluster-ip-pool.js';
import { analysePool } from '../../../../shared/ipam/pool-spec.js';
import type { Ip } from '../../../../shared/ipam/ip.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope, StatusUpdate } from '../../engine/skeleton/types.js';
import { reservationsOfPool, reservedAddress } from '../reservations.js';
import { FINALIZER_PROTECT_POOL, GLOBAL_IN_CLUSTER_POOL_KIND, IN_CLUSTER_POOL_KIND, RESERVATION_KIND } from '../well-known.js';
import { type PoolCounts, poolCounts } from './counts.js';
import { waitingClaims } from './waiting-claims.js';

export interface PoolScope extends Scope {
  counts?: PoolCounts;
  reservations: StoredObject[];
}

/** While addresses are allocated the pool waits; each release wakes it through the reservation watch. */
export const DELETE_WAIT_SECONDS = 60;

export async function countPhase(s: PoolScope): Promise<PhaseResult | undefined> {
  const reservations = await reservationsOfPool(s.ctx.store, s.object);
  const held = reservations.map(reservedAddress).filter((ip): ip is Ip => ip !== undefined);
  s.reservations = reservations;
  const spec = inClusterIPPoolSpecSchema.safeParse(s.object.spec);
  const analysis = spec.success ? analysePool(spec.data) : undefined;
  if (!analysis?.ok) {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'spec.addresses cannot be allocated from' });
    return { stop: true };
  }
  s.counts = poolCounts(analysis.set, held);
  s.conditions.push({ type: 'Ready', status: 'True', reason: 'Ready' });
  return undefined;
}

/** Claims waiting on this pool get another try when an address is free (IC re-enqueues on free 0 → >0). */
export async function wakeWaitingClaimsPhase(s: PoolScope): Promise<PhaseResult | undefined> {
  if (isDeleting(s.object) || !s.counts || s.counts.free === 0) return undefined;
  const waiting = await waitingClaims(s.ctx.store, s.object, s.reservations);
  if (waiting.length > 0) await s.ctx.queue.enqueueMany(waiting.slice(0, s.counts.free));
  return undefined;
}

export function waitForReleasePhase(s: PoolScope): PhaseResult | undefined {
  const held = s.reservations.length;
  if (held === 0) return undefined;
  s.conditions.push({
    type: 'Deleting',
    status: 'True',
    reason: 'AddressesInUse',
    message: `${held} addresses of this pool are still allocated; the pool goes once their claims release them`,
  });
  return { stop: true, requeueAfterSeconds: DELETE_WAIT_SECONDS };
}

function computePoolStatus(s: PoolScope): StatusUpdate {
  return { fields: s.counts ? { ipAddresses: s.counts } : {} };
}

function poolReconciler(kind: GroupKind): ReconcilerDefinition<PoolScope> {
  return {
    kind,
    finalizer: FINALIZER_PROTECT_POOL,
    watches: [{ kind: RESERVATION_KIND, by: 'reference', field: 'spec.poolRef' }],
    createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [], reservations: [] }),
    phases: [countPhase, wakeWaitingClaimsPhase],
    deletePhases: [countPhase, waitForReleasePhase],
    computeStatus: computePoolStatus,
  };
}

export const inClusterIPPoolReconciler = poolReconciler(IN_CLUSTER_POOL_KIND);
export const globalInClusterIPPoolReconciler = poolReconciler(GLOBAL_IN_CLUSTER_POOL_KIND);
