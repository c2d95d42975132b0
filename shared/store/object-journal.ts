/**
 * Where the in-memory store records its writes when it is the durable embedded store (ADR 0131).
 * Called synchronously, after the check and before any listener hears of the change, so a change
 * a watcher or reconciler sees is already in the journal's hands. Implementations must not
 * mutate what they are given.
 */

import type { ObjectKey, StoredObject } from '../contracts/object.js';

export interface ObjectJournal {
  /** The object as now stored (created or replaced). */
  put(obj: StoredObject): void;
  /** The object under this key is gone. */
  remove(key: ObjectKey): void;
}
