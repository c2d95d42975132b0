/**
 * The one size check both stores run before writing, so they agree on what fits.
 * DynamoDB's item limit is 400 KB (names plus values); capless stores an object as a few JSON
 * attributes plus keys and index attributes, so the serialized object must stay under the limit
 * with a margin for those.
 */

import type { KubeObject } from '../contracts/object.js';
import { TooLargeError } from '../errors/index.js';
import { keyOf } from '../contracts/object.js';

export const DYNAMODB_ITEM_LIMIT_BYTES = 400 * 1024;
/** Room kept for key, index and bookkeeping attributes. */
export const ITEM_OVERHEAD_MARGIN_BYTES = 8 * 1024;
export const MAX_OBJECT_BYTES = DYNAMODB_ITEM_LIMIT_BYTES - ITEM_OVERHEAD_MARGIN_BYTES;

export function serializedSize(obj: KubeObject): number {
  return Buffer.byteLength(JSON.stringify(obj), 'utf8');
}

/** Throws TooLargeError, naming the size and the limit, when the object would not fit in one item. */
export function assertFitsItemLimit(obj: KubeObject): void {
  assertSizeFits(obj, serializedSize(obj));
}

/**
 * A deep copy with `undefined` members dropped, exactly as a JSON round trip through DynamoDB
 * leaves it, checked against the item limit on the same serialization (a store's write then
 * serializes the object once, not twice). Throws TooLargeError.
 */
export function plainJsonWithinItemLimit<T extends KubeObject>(obj: T): T {
  const text = JSON.stringify(obj);
  assertSizeFits(obj, Buffer.byteLength(text, 'utf8'));
  return JSON.parse(text);
}

function assertSizeFits(obj: KubeObject, size: number): void {
  if (size <= MAX_OBJECT_BYTES) return;
  const key = keyOf(obj);
  throw new TooLargeError(
    `${obj.kind} "${key.name}" is too large: ${size} bytes serialized, the limit is ${MAX_OBJECT_BYTES} bytes (DynamoDB's ${DYNAMODB_ITEM_LIMIT_BYTES}-byte item limit minus ${ITEM_OVERHEAD_MARGIN_BYTES} bytes for keys and indexes)`,
    { details: { kind: obj.kind, name: key.name } },
  );
}
