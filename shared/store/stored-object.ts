/** Narrowing and normalising stored objects: both stores hand out plain JSON copies. */

import { isRecord } from '../contracts/json.js';
import type { KubeObject, StoredObject } from '../contracts/object.js';

/** A deep copy with `undefined` members dropped, exactly as a JSON round trip through DynamoDB leaves it. */
export function asPlainJson<T extends KubeObject>(obj: T): T {
  return JSON.parse(JSON.stringify(obj));
}

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
