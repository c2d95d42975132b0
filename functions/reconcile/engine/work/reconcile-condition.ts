import { conditionsOf, findCondition, setCondition } from '../../../../shared/contracts/conditions.js';
import { keyOf, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import { isConflict, isNotFound } from '../../../../shared/errors/index.js';
import { type Clock, timestamp } from '../../../../shared/ports/clock.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

/**
 * The condition the work queue owns on every reconciled object: False with a reason and the
 * error once a request is dead-lettered or failed terminally; flipped to True by the next
 * successful reconcile. Absent on objects that never failed.
 */
export const CONDITION_RECONCILE_SUCCEEDED = 'ReconcileSucceeded';
export const REASON_RETRIES_EXHAUSTED = 'RetriesExhausted';
export const REASON_SUCCEEDED = 'Succeeded';

const WRITE_ATTEMPTS = 5;
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
  let current: StoredObject | undefined = start;
  for (let attempt = 1; current && attempt <= WRITE_ATTEMPTS; attempt++) {
    const conditions = setCondition(
      conditionsOf(current.status),
      { type: CONDITION_RECONCILE_SUCCEEDED, status, reason, ...(message ? { message } : {}) },
      timestamp(target.clock),
      current.metadata.generation,
    );
    try {
      await target.store.updateStatus({ ...current, status: { ...current.status, conditions } });
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt === WRITE_ATTEMPTS) throw error;
      current = await target.store.get(keyOf(current));
    }
  }
}
