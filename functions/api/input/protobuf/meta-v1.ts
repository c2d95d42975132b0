/**
 * The k8s.io/apimachinery meta/v1 messages every kind embeds, as protobuf field tables (field
 * numbers from apimachinery's `generated.proto`).
 */

import type { MessageTable } from './messages.js';

export const OWNER_REFERENCE: MessageTable = {
  5: { name: 'apiVersion', type: 'string' },
  1: { name: 'kind', type: 'string' },
  3: { name: 'name', type: 'string' },
  4: { name: 'uid', type: 'string' },
  6: { name: 'controller', type: 'bool' },
  7: { name: 'blockOwnerDeletion', type: 'bool' },
};

export const OBJECT_META: MessageTable = {
  1: { name: 'name', type: 'string' },
  2: { name: 'generateName', type: 'string' },
  3: { name: 'namespace', type: 'string' },
  5: { name: 'uid', type: 'string' },
  6: { name: 'resourceVersion', type: 'string' },
  7: { name: 'generation', type: 'int64' },
  8: { name: 'creationTimestamp', type: 'time' },
  9: { name: 'deletionTimestamp', type: 'time' },
  10: { name: 'deletionGracePeriodSeconds', type: 'int64' },
  11: { name: 'labels', type: 'stringMap' },
  12: { name: 'annotations', type: 'stringMap' },
  13: { name: 'ownerReferences', type: OWNER_REFERENCE, repeated: true },
  14: { name: 'finalizers', type: 'string', repeated: true },
};

/** runtime.TypeMeta inside the runtime.Unknown envelope. */
export const TYPE_META: MessageTable = { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } };
