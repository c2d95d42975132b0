/**
 * How an owner that waits for what it controls (Cluster API's MachineDeployment
 * and MachineSet finalizers, `cluster.x-k8s.io/machinedeployment` and `cluster.x-k8s.io/machineset`):
 * delete every object of `kind` it controls, then wait until they are gone. The wait is
 * event-driven: the owner watches `kind` by owner, so each removal wakes it; the requeue is only
 * the safety net.
 *
 * Why the owner waits instead of leaving its members to the garbage collector: a reconcile of the
 * owner already in flight when the deletion lands still holds the owner as it was before. Had the
 * members gone at once, it would find none and create them again, orphans the moment they are
 * written (ADR 0115's known defect). While the owner waits, the members are still there to find.
 */

import { type StoredObject, isDeleting, keyOf } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import type { PhaseResult, Scope } from '../skeleton/types.js';
import { WAIT_SAFETY_NET_SECONDS } from '../work/wait-safety-net.js';

/**
 * The body of such a delete phase, over the members the owner's find phase listed: each not yet
 * deleting is deleted; finished (`{}`) when none is left, else stop and wait.
 */
export async function deleteMembersThenWait(s: Scope, members: readonly StoredObject[], kind: string, reason: string): Promise<PhaseResult> {
  if (members.length === 0) return {};
  for (const member of members.filter((m) => !isDeleting(m))) {
    try {
      await s.ctx.store.delete(keyOf(member));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  s.conditions.push({
    type: 'Deleting',
    status: 'True',
    reason,
    message: `waiting for ${members.length} ${kind}${members.length === 1 ? '' : 's'} to be deleted`,
  });
  return { stop: true, requeueAfterSeconds: WAIT_SAFETY_NET_SECONDS };
}
