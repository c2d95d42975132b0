/**
 * What every write route of a resource shares: the request in hand, reading the stored object,
 * and admitting and storing an update (with managedFields kept and checked).
 */

import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { deepEqual, isRecord, stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject, ObjectKey, StoredObject } from '../../../shared/contracts/object.js';
import { ConflictError, InvalidError, MethodNotAllowedError, NotFoundError } from '../../../shared/errors/index.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import type { Admission, AdmissionTarget } from '../admission-port.js';
import { managedFieldsErrors } from '../apply/managed-fields.js';
import { recordUpdate } from '../apply/update-ownership.js';
import type { Principal } from '../auth.js';
import type { ApiRequest } from '../http.js';
import type { ResourcePath } from '../paths.js';
import { visibleTo } from '../secret-access.js';
import { admitAgainstStore } from '../store-admission.js';
import type { WatchHub } from '../watch/watch-hub.js';
import { presentAs } from './present.js';

export interface ResourceDeps {
  store: ObjectStore;
  kinds: KindRegistry;
  admission: Admission;
  /** Serves `watch=true` (embedded mode); absent where the transport cannot stream. */
  watches?: WatchHub;
}

export interface Call {
  request: ApiRequest;
  principal: Principal;
  deps: ResourceDeps;
  dryRun: boolean;
  /** Parsed bodies, kept so a Secret's error can be scrubbed of the values it carried. */
  bodies: unknown[];
}

export type NamedPath = ResourcePath & { name: string; namespace: string };

export function requireName(path: ResourcePath): NamedPath {
  if (path.name === undefined || path.namespace === undefined) {
    throw new MethodNotAllowedError('this verb needs a namespaced object name in the path');
  }
  return { ...path, name: path.name, namespace: path.namespace };
}

export function keyFor(info: KindInfo, namespace: string, name: string): ObjectKey {
  return { group: info.group, kind: info.kind, namespace, name };
}

export function target(path: ResourcePath, namespace: string): AdmissionTarget {
  return { info: path.info, version: path.version, namespace, ...(path.name !== undefined ? { name: path.name } : {}) };
}

/** The object as this caller may see it (see secret-access.ts). */
export function shown(object: KubeObject, path: ResourcePath, call: Call): KubeObject {
  return visibleTo(presentAs(object, path.info), path.info, call.principal, false);
}

export async function getOrThrow(store: ObjectStore, info: KindInfo, namespace: string, name: string): Promise<StoredObject> {
  const object = await store.get(keyFor(info, namespace, name));
  if (!object) {
    throw new NotFoundError(`${info.plural}${info.group ? `.${info.group}` : ''} "${name}" not found`, {
      details: { group: info.group, kind: info.plural, name },
    });
  }
  return object;
}

/** A replacement that leaves out managedFields keeps the stored ones, as the API server does (`[]` resets them). */
export function withStoredManagedFields(body: unknown, old: StoredObject): unknown {
  const stored = valueAt(old, 'metadata', 'managedFields');
  if (!isRecord(body) || !isRecord(body.metadata) || body.metadata.managedFields !== undefined || stored === undefined) return body;
  return { ...body, metadata: { ...body.metadata, managedFields: stored } };
}

export function checkManagedFields(body: unknown, path: ResourcePath): void {
  const causes = managedFieldsErrors(valueAt(body, 'metadata', 'managedFields'));
  if (causes.length === 0) return;
  const name = stringAt(body, 'metadata', 'name') ?? path.name ?? '';
  throw new InvalidError(`${path.info.kind} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
    causes,
    details: { group: path.info.group, kind: path.info.kind, name },
  });
}

/**
 * Admits and stores an update (a dry run stores nothing); what the object is afterwards. With
 * `ownership`, a write that is not an apply takes the fields it changes (update-ownership.ts).
 */
export async function writeObject(body: unknown, old: StoredObject, path: NamedPath, call: Call, ownership?: { manager: string; subresource?: string }): Promise<KubeObject> {
  checkManagedFields(body, path);
  const t = target(path, path.namespace);
  const status = path.subresource === 'status';
  const checked = status
    ? call.deps.admission.updateStatus(body, old, t)
    : await admitAgainstStore(call.deps.admission.update(body, old, t), old, call.deps.store);
  const admitted = ownership ? recordUpdate({ info: path.info, old, updated: checked, ...ownership, now: rfc3339Now() }) : checked;
  if (admitted.metadata.resourceVersion !== old.metadata.resourceVersion) {
    throw new ConflictError(`Operation cannot be fulfilled on ${path.info.plural} "${path.name}": the object has been modified; please apply your changes to the latest version and try again`, {
      details: { group: path.info.group, kind: path.info.plural, name: path.name },
    });
  }
  // A write that changes nothing keeps the resourceVersion and emits no change (as Kubernetes does).
  if (deepEqual(admitted, old)) return old;
  if (call.dryRun) return admitted;
  return status ? await call.deps.store.updateStatus(admitted) : await call.deps.store.update(admitted);
}

/** Now, to the second, as managedFields times are written. */
export function rfc3339Now(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

