/**
 * Conditions one controller writes on another object's status (a MachineHealthCheck's marks, a
 * MachineSet's OwnerRemediated, a control plane's component health on its Machines): computed from
 * the object's current conditions, written through the status path only when they differ, re-read
 * and recomputed on a conflict. Nothing is written to an object that is gone.
 */

import { type Condition, conditionsOf } from '../../../../shared/contracts/conditions.js';
import { deepEqual } from '../../../../shared/contracts/json.js';
import { keyOf, type StoredObject } from '../../../../shared/contracts/object.js';
import { isConflict, isNotFound } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

const ATTEMPTS = 5;

/** The object as stored after the update (as read when nothing changed); undefined when it is gone. */
export async function updateConditions(store: ObjectStore, object: StoredObject, next: (current: readonly Condition[], object: StoredObject) => Condition[]): Promise<StoredObject | undefined> {
  let current: StoredObject | undefined = object;
  for (let attempt = 1; current; attempt++) {
    const before = conditionsOf(current.status);
    const after = next(before, current);
    if (deepEqual(before, after)) return current;
    try {
      return await store.updateStatus({ ...current, status: { ...(current.status ?? {}), conditions: after } });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt >= ATTEMPTS) throw error;
      current = await store.get(keyOf(current));
    }
  }
  return undefined;
}
