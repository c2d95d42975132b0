/**
 * The labels and annotations a Machine's owner (MachineSet, KubeadmControlPlane) keeps on the
 * Machine's InfraMachine and bootstrap config as well as on the Machine (Cluster API's
 * MachineSet `updateLabelsAndAnnotations` and KubeadmControlPlane `UpdateExternalObject`):
 * created with them, and given them again in place when they change. Set over what the part
 * has; what it has beside them stays (capless keeps no field ownership, as for the Machine).
 *
 * Level-triggered without reading every part on every run: the owner brings a Machine's parts
 * up to date before the Machine itself, in the run that changes the Machine's metadata, so a
 * Machine whose metadata is current has current parts; a run that dies in between finds the
 * Machine still out of date and does both again.
 */

import { deepEqual } from '../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { isNotFound } from '../../../shared/errors/index.js';
import { readReference, referenceKey } from '../engine/references/object-reference.js';
import { withEntries } from './machine-template-fields.js';

export interface PartsMetadata {
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
}

/** The part with `metadata` set over its own, or undefined when it has it already. */
export function partWithMetadata(part: StoredObject, metadata: PartsMetadata): StoredObject | undefined {
  const next: StoredObject = {
    ...part,
    metadata: { ...part.metadata, labels: withEntries(part.metadata.labels, metadata.labels), annotations: withEntries(part.metadata.annotations, metadata.annotations) },
  };
  return deepEqual(next.metadata, part.metadata) ? undefined : next;
}

/** Whether the Machine's own labels or annotations differ between the two versions (what makes its parts due). */
export function metadataChanged(before: StoredObject, after: StoredObject): boolean {
  return !deepEqual(before.metadata.labels ?? {}, after.metadata.labels ?? {}) || !deepEqual(before.metadata.annotations ?? {}, after.metadata.annotations ?? {});
}

/**
 * The Machine's InfraMachine and bootstrap config given `metadata` (one read each, and a write
 * where it is missing). A part that is gone or being deleted is left alone; `known` holds parts
 * already read (a KubeadmControlPlane has its InfraMachines listed).
 */
export async function syncPartsMetadata(store: Pick<ObjectStore, 'get' | 'update'>, machine: StoredObject, metadata: PartsMetadata, known: readonly StoredObject[] = []): Promise<void> {
  const refs = [readReference(machine, 'spec', 'infrastructureRef'), readReference(machine, 'spec', 'bootstrap', 'configRef')];
  for (const ref of refs) {
    if (!ref) continue;
    const key = referenceKey(ref, machine.metadata.namespace);
    const part = known.find((o) => o.kind === key.kind && o.metadata.name === key.name) ?? (await store.get(key));
    const next = part && !isDeleting(part) ? partWithMetadata(part, metadata) : undefined;
    if (!next) continue;
    try {
      await store.update(next);
    } catch (error) {
      // Gone meanwhile: nothing to label. A conflict is thrown: the retried run reads it again.
      if (!isNotFound(error)) throw error;
    }
  }
}
