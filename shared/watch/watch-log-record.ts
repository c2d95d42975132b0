/**
 * One change as the AWS watch log keeps it (ADR 0080): the object after the change (before it,
 * for a removal, carrying the removal's own resourceVersion), with a Secret's data left out, and
 * the labels it had before a modification (what label selectors need to turn a MODIFIED into an
 * ADDED or DELETED). Pure: the stream router makes records, the watch function reads them.
 */

import { groupOf, type StoredObject } from '../contracts/object.js';
import type { ObjectChange } from '../ports/object-store.js';
import { nextResourceVersion } from '../store/resource-version.js';
import type { JournalRecord, WatchEventType } from './change-journal.js';

export interface WatchLogRecord {
  type: WatchEventType;
  object: StoredObject;
  previousLabels?: Record<string, string>;
}

/** The record a change makes, or undefined when it carries no object to show. */
export function watchLogRecordFor(change: ObjectChange, now: Date): WatchLogRecord | undefined {
  if (change.type === 'REMOVE') {
    if (!change.oldObject) return undefined;
    const resourceVersion = nextResourceVersion(now, change.oldObject.metadata.resourceVersion);
    return { type: 'DELETED', object: withoutSecretData({ ...change.oldObject, metadata: { ...change.oldObject.metadata, resourceVersion } }) };
  }
  if (!change.newObject) return undefined;
  const object = withoutSecretData(change.newObject);
  if (change.type === 'INSERT') return { type: 'ADDED', object };
  return { type: 'MODIFIED', object, ...(change.oldObject ? { previousLabels: change.oldObject.metadata.labels ?? {} } : {}) };
}

/** The change log's view of a record (the previous object is the new one with its old labels). */
export function changeOfRecord(record: WatchLogRecord): Omit<JournalRecord, 'seq'> {
  const { type, object, previousLabels } = record;
  if (!previousLabels) return { type, object };
  return { type, object, previous: { ...object, metadata: { ...object.metadata, labels: previousLabels } } };
}

/** `group/Kind`, the partition a record lives in. */
export function watchLogKindKey(kind: { group: string; kind: string }): string {
  return `${kind.group}/${kind.kind}`;
}

export function kindKeyOf(object: StoredObject): string {
  return watchLogKindKey({ group: groupOf(object.apiVersion), kind: object.kind });
}

/** Watch events never carry a Secret's data (ADR 0043); the log does not keep it either. */
function withoutSecretData(object: StoredObject): StoredObject {
  if (object.kind !== 'Secret' || groupOf(object.apiVersion) !== '') return object;
  const { data: _data, ...rest } = object;
  return { ...rest, metadata: object.metadata };
}
