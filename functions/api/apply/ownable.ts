/**
 * The part of an object field managers own: no apiVersion and kind, no identity metadata
 * (structured-merge-diff's stripped common fields), and no status where a status subresource
 * keeps it apart from the object's writes.
 */

import { type JsonRecord, clone, isRecord } from '../../../shared/contracts/json.js';
import type { KindInfo } from '../../../shared/contracts/kinds.js';

const UNOWNED_METADATA = ['name', 'namespace', 'generateName', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

export function ownablePart(object: unknown, info: KindInfo): JsonRecord {
  const copy: unknown = clone(object);
  if (!isRecord(copy)) return {};
  delete copy.apiVersion;
  delete copy.kind;
  if (info.statusSubresource) delete copy.status;
  if (isRecord(copy.metadata)) {
    for (const field of UNOWNED_METADATA) delete copy.metadata[field];
    if (Object.keys(copy.metadata).length === 0) delete copy.metadata;
  }
  return copy;
}
