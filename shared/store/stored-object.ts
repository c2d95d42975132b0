/** Narrowing stored objects read back from a store. */

import { isRecord } from '../contracts/json.js';
import type { StoredObject } from '../contracts/object.js';

export function isStoredObject(value: unknown): value is StoredObject {
  if (!isRecord(value) || typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') return false;
  const meta = value.metadata;
  return (
    isRecord(meta) &&
    typeof meta.name === 'string' &&
    typeof meta.namespace === 'string' &&
    typeof meta.uid === 'string' &&
    typeof meta.resourceVersion === 'string' &&
    typeof meta.generation === 'number' &&
    typeof meta.creationTimestamp === 'string'
  );
}
