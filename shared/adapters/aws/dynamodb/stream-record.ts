/** DynamoDB Streams record -> ObjectChange, for the router Lambda. Pure. */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ObjectChange } from '../../../ports/object-store.js';
import { ATTR, type Item, itemToObject } from './item-codec.js';
import { isObjectPartitionKey } from './table-design.js';

/** The part of @types/aws-lambda's DynamoDBRecord this needs (its AttributeValue is structurally the SDK's). */
export interface StreamRecordLike {
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
  };
}

/** The change a record describes, or undefined for items that are not objects (queue, edges …). */
export function objectChangeFromStreamRecord(record: StreamRecordLike): ObjectChange | undefined {
  const pk = stringAttribute(record.dynamodb?.Keys?.[ATTR.pk]);
  if (pk === undefined || !isObjectPartitionKey(pk) || record.eventName === undefined) return undefined;
  const newObject = itemToObject(asItem(record.dynamodb?.NewImage));
  const oldObject = itemToObject(asItem(record.dynamodb?.OldImage));
  const change: ObjectChange = { type: record.eventName };
  if (oldObject) change.oldObject = oldObject;
  if (newObject) change.newObject = newObject;
  return oldObject || newObject ? change : undefined;
}

function stringAttribute(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('S' in value)) return undefined;
  return typeof value.S === 'string' ? value.S : undefined;
}

/** Keeps the string and number attributes an object item is made of. */
function asItem(image: Record<string, unknown> | undefined): Item | undefined {
  if (!image) return undefined;
  const item: Item = {};
  for (const [name, value] of Object.entries(image)) {
    const attribute = scalarAttribute(value);
    if (attribute) item[name] = attribute;
  }
  return item;
}

function scalarAttribute(value: unknown): AttributeValue | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if ('S' in value && typeof value.S === 'string') return { S: value.S };
  if ('N' in value && typeof value.N === 'string') return { N: value.N };
  return undefined;
}
