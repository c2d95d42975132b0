/**
 * A Kubernetes protobuf body: the `k8s\0` magic and a runtime.Unknown envelope (type meta and the
 * raw message), read into the JSON object it encodes for the kinds that have a table here — the
 * built-in kinds client-go's typed clients send (field numbers: k8s.io/apimachinery runtime
 * `generated.proto`).
 */

import type { JsonRecord } from '../../../../shared/contracts/json.js';
import { BadRequestError, UnsupportedMediaTypeError } from '../../../../shared/errors/index.js';
import { CORE_V1_KINDS } from './core-v1.js';
import { type MessageTable, readMessage } from './messages.js';
import { TYPE_META } from './meta-v1.js';
import { AUTHENTICATION_V1_KINDS, AUTHORIZATION_V1_KINDS } from './review-v1.js';
import { bytesOf, readFields, text } from './wire.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

/** The tables by apiVersion, then kind. */
const KINDS: ReadonlyMap<string, ReadonlyMap<string, MessageTable>> = new Map([
  ['v1', new Map(Object.entries(CORE_V1_KINDS))],
  ['authorization.k8s.io/v1', new Map(Object.entries(AUTHORIZATION_V1_KINDS))],
  ['authentication.k8s.io/v1', new Map(Object.entries(AUTHENTICATION_V1_KINDS))],
]);

function accepted(): string {
  return [...KINDS].map(([apiVersion, kinds]) => `${apiVersion} ${[...kinds.keys()].join(', ')}`).join('; ');
}

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
  const table = typeof apiVersion === 'string' && typeof kind === 'string' ? KINDS.get(apiVersion)?.get(kind) : undefined;
  if (!table) {
    throw new UnsupportedMediaTypeError(
      `the body of the request was in an unknown format - ${PROTOBUF_MEDIA_TYPE} is accepted for ${accepted()} only; send application/json (got ${JSON.stringify(`${String(apiVersion ?? '')} ${String(kind ?? '')}`.trim())})`,
    );
  }
  if (encoding !== '') throw new UnsupportedMediaTypeError(`the request body's content encoding ${JSON.stringify(encoding)} is not supported`);
  return { apiVersion, kind, ...readMessage(raw, table, String(kind)) };
}
