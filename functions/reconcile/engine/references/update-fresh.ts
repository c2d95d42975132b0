/**
 * Writes to objects another reconciler also writes (a provider object the core adopts while its
 * own reconciler fills it in) conflict now and then. The change is a pure function of the
 * object, so on a conflict it is recomputed on a fresh read instead of failing the reconcile.
 */

import { type StoredObject, keyOf } from '../../../../shared/contracts/object.js';
import { isConflict } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

export const UPDATE_ATTEMPTS = 3;

/**
 * `change` returns the object to write, or undefined when nothing needs to change. Returns the
 * object as stored afterwards (undefined when it disappeared meanwhile).
 */
export async function updateFresh(
  store: ObjectStore,
  object: StoredObject,
  change: (current: StoredObject) => StoredObject | undefined,
): Promise<StoredObject | undefined> {
  let current: StoredObject | undefined = object;
  for (let attempt = 1; current; attempt++) {
    const next = change(current);
    if (!next) return current;
    try {
      return await store.update(next);
    } catch (error) {
      if (!isConflict(error) || attempt >= UPDATE_ATTEMPTS) throw error;
      current = await store.get(keyOf(current));
    }
  }
  return undefined;
}
