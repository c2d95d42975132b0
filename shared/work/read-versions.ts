import type { ObjectChange } from '../ports/object-store.js';
import type { CausedEnqueueOptions, ObjectVersion } from '../ports/work-queue.js';
import { isResourceVersion } from '../store/resource-version.js';

/**
 * The objects one reconcile read and based its work on (ADR 0137), by uid: each at the
 * resourceVersion it was first handed out at, leaving out every object the reconcile wrote or
 * tried to write (it may have read those only to write them, and its own write may be what it
 * waits to be woken by).
 */
export type ReadVersions = ReadonlyMap<string, string>;

/**
 * Whether the reconcile that read `read` has seen the change that made `cause`: it read that
 * object at that version or a later one. A store's resourceVersions rise strictly per object
 * (shared/store/resource-version.ts); one this repository's stores did not issue compares for
 * equality only.
 */
export function hasRead(read: ReadVersions | undefined, cause: ObjectVersion): boolean {
  const seen = read?.get(cause.uid);
  if (seen === undefined) return false;
  if (seen === cause.resourceVersion) return true;
  return isResourceVersion(seen) && isResourceVersion(cause.resourceVersion) && Number(seen) > Number(cause.resourceVersion);
}

/**
 * The cause a change's requests carry: the version it made. A removal carries none, so the
 * requests it causes always run (no reconcile can have read a version that is gone).
 */
export function causeOf(change: ObjectChange): CausedEnqueueOptions {
  const made = change.type === 'REMOVE' ? undefined : change.newObject;
  return made ? { cause: { uid: made.metadata.uid, resourceVersion: made.metadata.resourceVersion } } : {};
}
