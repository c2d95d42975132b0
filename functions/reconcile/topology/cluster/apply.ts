/**
 * Writing the desired state (Cluster API's reconcile_state.go, without server-side apply): an
 * object that does not exist is created, owned by the Cluster; one that exists is updated in
 * place when a field the topology manages differs (labels and annotations it sets, and its spec
 * merged over the current one: objects key by key, lists and values replaced). Fields other
 * controllers own are left alone, nothing is deleted and recreated, and an object already as
 * desired is not written (no spurious generation bump, no rollout).
 */

import { clone, deepEqual, isRecord, type JsonRecord } from '../../../../shared/contracts/json.js';
import { type KubeObject, keyOf, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { isAlreadyExists } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { updateFresh } from '../../engine/references/update-fresh.js';

/** `desired` merged over `current`: records key by key, anything else replaced. Pure. */
export function mergeManaged(current: JsonRecord, desired: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...current };
  for (const [key, value] of Object.entries(desired)) {
    const before = current[key];
    out[key] = isRecord(before) && isRecord(value) ? mergeManaged(before, value) : clone(value);
  }
  return out;
}

function ownedBy(object: KubeObject, owner: StoredObject, controller: boolean): KubeObject['metadata']['ownerReferences'] {
  const refs = object.metadata.ownerReferences ?? [];
  if (refs.some((r) => r.uid === owner.metadata.uid)) return refs;
  if (controller && refs.some((r) => r.controller === true)) return [...refs, ownerReferenceTo(owner, false)];
  return [...refs, ownerReferenceTo(owner, controller)];
}

/** The object as it should be stored given what is stored now, or undefined when nothing changes. */
export function updatedObject(current: StoredObject, desired: KubeObject, owner: StoredObject, controller: boolean): StoredObject | undefined {
  const next: StoredObject = {
    ...current,
    metadata: {
      ...current.metadata,
      labels: { ...current.metadata.labels, ...desired.metadata.labels },
      annotations: { ...current.metadata.annotations, ...desired.metadata.annotations },
      ownerReferences: ownedBy(current, owner, controller),
    },
    spec: mergeManaged(current.spec ?? {}, desired.spec ?? {}),
  };
  if (Object.keys(next.metadata.annotations ?? {}).length === 0 && current.metadata.annotations === undefined) delete next.metadata.annotations;
  if (Object.keys(next.metadata.labels ?? {}).length === 0 && current.metadata.labels === undefined) delete next.metadata.labels;
  return deepEqual(next, current) ? undefined : next;
}

export interface ApplyOutcome {
  object: StoredObject;
  created: boolean;
  updated: boolean;
}

/** Creates or updates one object owned by `owner`. Safe to run twice; a create that lost a race becomes an update. */
export async function applyObject(store: ObjectStore, desired: KubeObject, owner: StoredObject, controller: boolean): Promise<ApplyOutcome> {
  const current = await store.get(keyOf(desired));
  if (!current) {
    try {
      const created = await store.create({ ...desired, metadata: { ...desired.metadata, ownerReferences: ownedBy(desired, owner, controller) } });
      return { object: created, created: true, updated: false };
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      return applyObject(store, desired, owner, controller);
    }
  }
  let updated = false;
  const written = await updateFresh(store, current, (fresh) => {
    const next = updatedObject(fresh, desired, owner, controller);
    updated ||= next !== undefined;
    return next;
  });
  return { object: written ?? current, created: false, updated };
}
