/**
 * The write semantics both stores share, as pure functions from (stored copy, request, now) to the
 * object to write. The stores only add persistence and the conditional check on resourceVersion.
 */

import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NAMESPACE,
  isDeleting,
  keyOf,
  type KubeObject,
  type ObjectKey,
  type ObjectMeta,
  type StoredObject,
} from '../contracts/object.js';
import { AlreadyExistsError, ConflictError, InvalidError, NotFoundError } from '../errors/index.js';
import type { DeleteOptions } from '../ports/object-store.js';
import { generationSourceChanged } from './generation.js';
import { plainJsonWithinItemLimit } from './item-size.js';
import { assertValidNames } from './names.js';
import { nextResourceVersion } from './resource-version.js';

/** RFC 3339, second precision, like metav1.Time. */
export function rfc3339(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/** Validates and fills server-set metadata for a new object. Throws InvalidError / TooLargeError. */
export function prepareCreate(obj: KubeObject, now: Date): StoredObject {
  const namespace = obj.metadata.namespace ?? DEFAULT_NAMESPACE;
  assertValidNames(obj.kind, obj.metadata.name, namespace);
  const { deletionTimestamp: _ignored, ...meta } = obj.metadata;
  const created: StoredObject = plainJsonWithinItemLimit({
    ...obj,
    metadata: {
      ...meta,
      namespace,
      uid: randomUUID(),
      resourceVersion: nextResourceVersion(now),
      generation: 1,
      creationTimestamp: rfc3339(now),
    },
  });
  return created;
}

export type UpdatePlan = { action: 'write'; object: StoredObject } | { action: 'remove'; object: StoredObject };

/** Whether an update takes `status` from the request too (updateWithStatus) or keeps the stored one (update). */
export type StatusSource = 'stored' | 'request';

/**
 * update: takes everything but `status` from the request, keeps status and immutable metadata
 * from the stored copy, bumps generation when spec (data) changed. A deleting object left with
 * no finalizers is removed instead of written. updateWithStatus (`status: 'request'`) is the same
 * write with the request's status in it.
 */
export function prepareUpdate(stored: StoredObject, incoming: KubeObject, now: Date, status: StatusSource = 'stored'): UpdatePlan {
  assertCurrentVersion(stored, incoming);
  assertValidNames(incoming.kind, incoming.metadata.name, stored.metadata.namespace);
  if (isDeleting(stored)) assertNoNewFinalizers(stored, incoming);
  const generation = stored.metadata.generation + (generationSourceChanged(stored, incoming) ? 1 : 0);
  const object: StoredObject = plainJsonWithinItemLimit({
    ...incoming,
    metadata: {
      ...incoming.metadata,
      ...immutableMeta(stored),
      generation,
      resourceVersion: nextResourceVersion(now, stored.metadata.resourceVersion),
    },
    status: status === 'request' ? incoming.status : stored.status,
  });
  const finalizersLeft = (object.metadata.finalizers ?? []).length;
  return isDeleting(object) && finalizersLeft === 0 ? { action: 'remove', object } : { action: 'write', object };
}

/** updateStatus: only `status` comes from the request. */
export function prepareStatusUpdate(stored: StoredObject, incoming: KubeObject, now: Date): StoredObject {
  assertCurrentVersion(stored, incoming);
  const object: StoredObject = plainJsonWithinItemLimit({
    ...stored,
    metadata: { ...stored.metadata, resourceVersion: nextResourceVersion(now, stored.metadata.resourceVersion) },
    status: incoming.status,
  });
  return object;
}

export type DeletePlan =
  /** No finalizers: remove now (then collect dependents). */
  | { action: 'remove'; object: StoredObject }
  /** Finalizers remain: write this copy, which carries deletionTimestamp. */
  | { action: 'markDeleting'; object: StoredObject }
  /** Already deleting: nothing to write. */
  | { action: 'none'; object: StoredObject };

export function planDelete(stored: StoredObject, options: DeleteOptions, now: Date): DeletePlan {
  if (options.resourceVersion !== undefined && options.resourceVersion !== stored.metadata.resourceVersion) {
    throw conflict(keyOf(stored), 'the ResourceVersion in the precondition does not match the ResourceVersion in record');
  }
  if ((stored.metadata.finalizers ?? []).length === 0) return { action: 'remove', object: stored };
  if (isDeleting(stored)) return { action: 'none', object: stored };
  const object: StoredObject = {
    ...stored,
    metadata: {
      ...stored.metadata,
      deletionTimestamp: rfc3339(now),
      resourceVersion: nextResourceVersion(now, stored.metadata.resourceVersion),
    },
  };
  return { action: 'markDeleting', object };
}

export function notFound(key: ObjectKey): NotFoundError {
  const resource = key.group ? `${key.kind}.${key.group}` : key.kind;
  return new NotFoundError(`${resource} "${key.name}" not found`, {
    details: { group: key.group, kind: key.kind, name: key.name },
  });
}

export function conflict(key: ObjectKey, why = 'the object has been modified; please apply your changes to the latest version and try again'): ConflictError {
  const resource = key.group ? `${key.kind}.${key.group}` : key.kind;
  return new ConflictError(`Operation cannot be fulfilled on ${resource} "${key.name}": ${why}`, {
    details: { group: key.group, kind: key.kind, name: key.name },
  });
}

function assertCurrentVersion(stored: StoredObject, incoming: KubeObject): void {
  const expected = incoming.metadata.resourceVersion;
  if (expected === undefined || expected === '') {
    throw new InvalidError(`${incoming.kind} "${incoming.metadata.name}" is invalid: metadata.resourceVersion: must be specified for an update`, {
      causes: [{ field: 'metadata.resourceVersion', reason: 'FieldValueInvalid', message: 'must be specified for an update' }],
      details: { kind: incoming.kind, name: incoming.metadata.name },
    });
  }
  if (expected !== stored.metadata.resourceVersion) throw conflict(keyOf(stored));
}

function assertNoNewFinalizers(stored: StoredObject, incoming: KubeObject): void {
  const before = new Set(stored.metadata.finalizers ?? []);
  const added = (incoming.metadata.finalizers ?? []).filter((f) => !before.has(f));
  if (added.length === 0) return;
  const message = `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`;
  throw new InvalidError(`${incoming.kind} "${incoming.metadata.name}" is invalid: metadata.finalizers: Forbidden: ${message}`, {
    causes: [{ field: 'metadata.finalizers', reason: 'FieldValueForbidden', message }],
    details: { kind: incoming.kind, name: incoming.metadata.name },
  });
}

function immutableMeta(stored: StoredObject): Partial<ObjectMeta> & Pick<StoredObject['metadata'], 'namespace' | 'uid' | 'creationTimestamp'> {
  return {
    namespace: stored.metadata.namespace,
    uid: stored.metadata.uid,
    creationTimestamp: stored.metadata.creationTimestamp,
    deletionTimestamp: stored.metadata.deletionTimestamp,
  };
}

export function alreadyExists(key: ObjectKey): AlreadyExistsError {
  const resource = key.group ? `${key.kind}.${key.group}` : key.kind;
  return new AlreadyExistsError(`${resource} "${key.name}" already exists`, {
    details: { group: key.group, kind: key.kind, name: key.name },
  });
}
