/**
 * Garbage collection of dependents when an owner is removed, over the ObjectStore port so both
 * stores share it. Runs inline, right after the removal, in the same call.
 *
 * - Background (default) and Foreground: each dependent whose only owner was the removed object
 *   is deleted like any other object (its own finalizers are honoured, and its removal collects
 *   its own dependents in turn). Foreground is treated as Background: the owner is already gone.
 * - Orphan: dependents lose the ownerReference and stay.
 * - A dependent that still names other owners only loses the reference to the removed one.
 */

import { keyOf, type StoredObject } from '../contracts/object.js';
import { isConflict, isNotFound } from '../errors/index.js';
import type { ObjectStore, PropagationPolicy } from '../ports/object-store.js';

const MAX_ATTEMPTS = 5;

export async function collectGarbage(store: ObjectStore, ownerUid: string, policy: PropagationPolicy): Promise<void> {
  const dependents = await store.listByOwner(ownerUid);
  for (const dependent of dependents) {
    const otherOwners = (dependent.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== ownerUid);
    if (policy === 'Orphan' || otherOwners.length > 0) {
      await stripOwnerReference(store, dependent, ownerUid);
    } else {
      await deleteDependent(store, dependent);
    }
  }
}

async function deleteDependent(store: ObjectStore, dependent: StoredObject): Promise<void> {
  try {
    await store.delete(keyOf(dependent), { propagationPolicy: 'Background' });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Removes the reference to ownerUid, re-reading and retrying on conflicts. */
export async function stripOwnerReference(store: ObjectStore, dependent: StoredObject, ownerUid: string): Promise<void> {
  let current: StoredObject | undefined = dependent;
  for (let attempt = 1; current && attempt <= MAX_ATTEMPTS; attempt++) {
    const refs = current.metadata.ownerReferences ?? [];
    const remaining = refs.filter((ref) => ref.uid !== ownerUid);
    if (remaining.length === refs.length) return;
    const { ownerReferences: _dropped, ...meta } = current.metadata;
    try {
      await store.update({ ...current, metadata: remaining.length > 0 ? { ...meta, ownerReferences: remaining } : meta });
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt === MAX_ATTEMPTS) throw error;
      current = await store.get(keyOf(current));
    }
  }
}
