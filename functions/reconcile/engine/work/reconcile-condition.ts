import { conditionsOf, findCondition, setCondition } from '../../../../shared/contracts/conditions.js';
import type { ObjectKey, StoredObject } from '../../../../shared/contracts/object.js';
import { type Clock, timestamp } from '../../../../shared/ports/clock.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { updateConditions } from '../references/update-conditions.js';

/**
 * The condition the work queue owns on every reconciled object: False with a reason and the
 * error once a request is dead-lettered or failed terminally; flipped to True by the next
 * successful reconcile. Absent on objects that never failed.
 */
export const CONDITION_RECONCILE_SUCCEEDED = 'ReconcileSucceeded';
export const REASON_RETRIES_EXHAUSTED = 'RetriesExhausted';
export const REASON_SUCCEEDED = 'Succeeded';

/** Messages are capped so a huge error cannot push the item past the size limit. */
const MAX_MESSAGE_LENGTH = 1024;

export interface ConditionTarget {
  store: ObjectStore;
  clock: Clock;
}

/** Writes ReconcileSucceeded=False through the status path, re-reading on conflict. */
export async function recordReconcileFailure(
  target: ConditionTarget,
  key: ObjectKey,
  reason: string,
  message: string,
): Promise<void> {
  const current = await target.store.get(key);
  if (current) await writeCondition(target, current, 'False', reason, message.slice(0, MAX_MESSAGE_LENGTH));
}

/** Flips ReconcileSucceeded to True when `object` (as last seen) says it had failed. */
export async function clearReconcileFailure(target: ConditionTarget, object: StoredObject): Promise<void> {
  const condition = findCondition(conditionsOf(object.status), CONDITION_RECONCILE_SUCCEEDED);
  if (!condition || condition.status === 'True') return;
  await writeCondition(target, object, 'True', REASON_SUCCEEDED, undefined);
}

async function writeCondition(
  target: ConditionTarget,
  start: StoredObject,
  status: 'True' | 'False',
  reason: string,
  message: string | undefined,
): Promise<void> {
  const condition = { type: CONDITION_RECONCILE_SUCCEEDED, status, reason, ...(message ? { message } : {}) };
  await updateConditions(target.store, start, (current, object) => setCondition(current, condition, timestamp(target.clock), object.metadata.generation));
}
