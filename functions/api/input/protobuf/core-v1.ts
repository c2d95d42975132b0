/**
 * The core/v1 kinds capless serves, read from Kubernetes' protobuf encoding: what client-go's typed
 * clients send (`kubectl create secret|configmap|namespace`, controller-runtime writing a
 * corev1.Namespace in `clusterctl move`). A body is the `k8s\0` magic and a runtime.Unknown
 * envelope (type meta and the raw message). Field numbers: k8s.io/api core/v1 and
 * k8s.io/apimachinery meta/v1 and runtime `generated.proto`.
 */

import type { JsonRecord } from '../../../../shared/contracts/json.js';
import { BadRequestError, UnsupportedMediaTypeError } from '../../../../shared/errors/index.js';
import { type MessageTable, readMessage } from './messages.js';
import { bytesOf, readFields, text } from './wire.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

const OWNER_REFERENCE: MessageTable = {
  5: { name: 'apiVersion', type: 'string' },
  1: { name: 'kind', type: 'string' },
  3: { name: 'name', type: 'string' },
  4: { name: 'uid', type: 'string' },
  6: { name: 'controller', type: 'bool' },
  7: { name: 'blockOwnerDeletion', type: 'bool' },
};

const OBJECT_META: MessageTable = {
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

const NAMESPACE_CONDITION: MessageTable = {
  1: { name: 'type', type: 'string' },
  2: { name: 'status', type: 'string' },
  4: { name: 'lastTransitionTime', type: 'time' },
  5: { name: 'reason', type: 'string' },
  6: { name: 'message', type: 'string' },
};

/** The core/v1 kinds read from protobuf, by kind. */
const KINDS: ReadonlyMap<string, MessageTable> = new Map<string, MessageTable>(Object.entries<MessageTable>({
  Secret: {
    1: { name: 'metadata', type: OBJECT_META },
    5: { name: 'immutable', type: 'bool' },
    2: { name: 'data', type: 'bytesMap' },
    4: { name: 'stringData', type: 'stringMap' },
    3: { name: 'type', type: 'string' },
  },
  ConfigMap: {
    1: { name: 'metadata', type: OBJECT_META },
    4: { name: 'immutable', type: 'bool' },
    2: { name: 'data', type: 'stringMap' },
    3: { name: 'binaryData', type: 'bytesMap' },
  },
  Namespace: {
    1: { name: 'metadata', type: OBJECT_META },
    2: { name: 'spec', type: { 1: { name: 'finalizers', type: 'string', repeated: true } } },
    3: { name: 'status', type: { 1: { name: 'phase', type: 'string' }, 2: { name: 'conditions', type: NAMESPACE_CONDITION, repeated: true } } },
  },
}));

const TYPE_META: MessageTable = { 1: { name: 'apiVersion', type: 'string' }, 2: { name: 'kind', type: 'string' } };

/** A protobuf create or replace body as the JSON object it encodes; 415 for a kind it cannot carry here. */
export function objectFromProtobuf(body: Uint8Array): JsonRecord {
  if (body.length < MAGIC.length || MAGIC.some((byte, i) => body[i] !== byte)) {
    throw new BadRequestError('the request body is not valid protobuf: it does not start with the Kubernetes magic number');
  }
  // runtime.Unknown: typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4.
  let typeMeta: JsonRecord = {};
  let raw: Uint8Array = new Uint8Array();
  let encoding = '';
  for (const entry of readFields(body.subarray(MAGIC.length), 'the envelope')) {
    if (entry.field === 1) typeMeta = readMessage(bytesOf(entry, 'typeMeta'), TYPE_META, 'typeMeta');
    else if (entry.field === 2) raw = bytesOf(entry, 'raw');
    else if (entry.field === 3) encoding = text(bytesOf(entry, 'contentEncoding'), 'contentEncoding');
  }
  const { apiVersion, kind } = typeMeta;
  const table = apiVersion === 'v1' && typeof kind === 'string' ? KINDS.get(kind) : undefined;
  if (!table) {
    throw new UnsupportedMediaTypeError(
      `the body of the request was in an unknown format - ${PROTOBUF_MEDIA_TYPE} is accepted for v1 ${[...KINDS.keys()].join(', ')} only; send application/json (got ${JSON.stringify(`${String(apiVersion ?? '')} ${String(kind ?? '')}`.trim())})`,
    );
  }
  if (encoding !== '') throw new UnsupportedMediaTypeError(`the request body's content encoding ${JSON.stringify(encoding)} is not supported`);
  return { apiVersion, kind, ...readMessage(raw, table, String(kind)) };
}
