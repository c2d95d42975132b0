/**
 * Ownership after a write that is not an apply (a PUT, a merge or JSON patch, `/scale`): the
 * fields the write changed become its manager's (an `Update` entry) and stop being anyone
 * else's, so an applier that later sets them otherwise meets a conflict, as in Kubernetes. Only
 * on objects that already carry managedFields (someone applied them): an object only ever
 * written by other means carries none, and its writes cost no more than before (ADR 0153).
 */

import { type JsonRecord, deepEqual, valueAt } from '../../../shared/contracts/json.js';
import type { KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ApiRequest } from '../http.js';
import { type Shape, objectShape } from './apply-schema.js';
import { EMPTY_SET, type FieldSet, difference, isEmptySet, memberPaths, setOfPaths, union } from './field-set.js';
import { MAX_MANAGER_LENGTH, type ManagedFieldsEntry, managedFieldsJson, readManagedFields } from './managed-fields.js';
import { fieldSetOf, isMissing, valueAtPath } from './object-fields.js';
import { ownablePart } from './ownable.js';

export interface UpdateWrite {
  info: KindInfo;
  old: KubeObject;
  /** The object as admitted, about to be stored. */
  updated: KubeObject;
  manager: string;
  /** `scale` for a write through the scale subresource. */
  subresource?: string;
  now: string;
}

/** `updated` with its managedFields brought up to date by this write. */
export function recordUpdate(write: UpdateWrite): KubeObject {
  const before = valueAt(write.old, 'metadata', 'managedFields');
  const sent = valueAt(write.updated, 'metadata', 'managedFields');
  // No one applied this object; or the write set managedFields itself (a reset, a cleanup): as sent.
  if (!Array.isArray(before) || before.length === 0 || !deepEqual(before, sent)) return write.updated;
  const changed = changedFields(write.old, write.updated, write.info);
  if (isEmptySet(changed)) return write.updated;
  const entries = readManagedFields(before);
  const isMine = (e: ManagedFieldsEntry) => e.manager === write.manager && e.operation === 'Update' && (e.subresource ?? '') === (write.subresource ?? '');
  const mine = entries.find(isMine);
  const apiVersion = write.updated.apiVersion;
  const entry: ManagedFieldsEntry = {
    manager: write.manager,
    operation: 'Update',
    apiVersion,
    time: write.now,
    fields: union(mine?.fields ?? EMPTY_SET, changed),
    ...(write.subresource !== undefined ? { subresource: write.subresource } : {}),
  };
  const after = entries.flatMap((e) => {
    if (isMine(e)) return [entry];
    const kept = { ...e, fields: difference(e.fields, changed) };
    return isEmptySet(kept.fields) ? [] : [kept];
  });
  if (mine === undefined) after.push(entry);
  return { ...write.updated, metadata: { ...write.updated.metadata, managedFields: managedFieldsJson(after) } };
}

/** The fields whose values differ, were added or were removed between two versions of an object. */
export function changedFields(old: unknown, updated: unknown, info: KindInfo): FieldSet {
  const shape: Shape = objectShape(info.group, info.kind);
  const before: JsonRecord = ownablePart(old, info);
  const after: JsonRecord = ownablePart(updated, info);
  const paths = [
    ...memberPaths(fieldSetOf(after, shape)).filter((path) => differs(before, after, path)),
    ...memberPaths(fieldSetOf(before, shape)).filter((path) => isMissing(valueAtPath(after, path))),
  ];
  return setOfPaths(paths);
}

function differs(before: JsonRecord, after: JsonRecord, path: readonly string[]): boolean {
  const was = valueAtPath(before, path);
  return isMissing(was) || !deepEqual(was, valueAtPath(after, path));
}

/** The manager of a write: `fieldManager`, else the client's user agent up to its first `/` (as the API server names it). */
export function updateManagerOf(request: ApiRequest): string {
  const given = request.query.get('fieldManager');
  if (given) return given;
  const agent = request.headers['user-agent'] ?? '';
  const prefix = agent.split('/')[0] ?? '';
  return prefix.slice(0, MAX_MANAGER_LENGTH) || 'unknown';
}
