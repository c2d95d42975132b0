import { deepEqual } from '../../../shared/contracts/json.js';
import type { ObjectChange } from '../../../shared/ports/object-store.js';

/**
 * controller-runtime's GenerationChanged + metadata predicates for an object's OWN reconciler:
 * creations and removals always count; a modification counts only when something a reconciler
 * acts on changed. A status-only write (and the resourceVersion bump that comes with it) does
 * not, so a reconciler's own status write never re-triggers it; nor does its finalizer being added.
 */
export function ownChangeMatters(change: ObjectChange, ownFinalizer?: string): boolean {
  if (change.type !== 'MODIFY') return true;
  const before = change.oldObject?.metadata;
  const after = change.newObject?.metadata;
  if (!before || !after) return true;
  return (
    before.generation !== after.generation ||
    before.deletionTimestamp !== after.deletionTimestamp ||
    !deepEqual(before.labels ?? {}, after.labels ?? {}) ||
    !deepEqual(before.annotations ?? {}, after.annotations ?? {}) ||
    (!deepEqual(before.finalizers ?? [], after.finalizers ?? []) && !onlyAdded(before.finalizers ?? [], after.finalizers ?? [], ownFinalizer)) ||
    !deepEqual(before.ownerReferences ?? [], after.ownerReferences ?? [])
  );
}

/**
 * The reconciler's own finalizer appended and nothing else: the echo of its first reconcile, which
 * adds the finalizer and goes on with its phases in the same run, so the change tells it nothing.
 */
function onlyAdded(before: readonly string[], after: readonly string[], finalizer: string | undefined): boolean {
  return finalizer !== undefined && !before.includes(finalizer) && deepEqual([...before, finalizer], after);
}
