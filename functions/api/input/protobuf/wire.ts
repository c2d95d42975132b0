/**
 * Protocol Buffers' wire format, read-only and bounded: a message is a run of fields, each a tag
 * (field number and wire type) and a value. Only what Kubernetes' generated messages use is read:
 * varints (ints, bools), length-delimited values (strings, bytes, messages, map entries) and the
 * fixed-width types, which are skipped. Anything malformed is a 400 naming the message.
 */

import { BadRequestError } from '../../../../shared/errors/index.js';

export type WireField = { field: number; varint: bigint } | { field: number; bytes: Uint8Array } | { field: number; fixed: true };

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** The fields of one message in the order they appear (a repeated field appears once per value). */
export function readFields(message: Uint8Array, what: string): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const fail = (why: string): never => {
    throw new BadRequestError(`the request body is not valid protobuf: ${what}: ${why} at byte ${at}`);
  };
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (at >= message.length) fail('a varint runs past the end');
      const byte = message[at++] ?? 0;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, value);
    }
    return fail('a varint is longer than 10 bytes');
  };
  while (at < message.length) {
    const tag = varint();
    const field = Number(tag >> 3n);
    const type = Number(tag & 7n);
    if (field === 0) fail('field number 0');
    if (type === VARINT) fields.push({ field, varint: varint() });
    else if (type === LENGTH_DELIMITED) {
      const length = varint();
      if (length > BigInt(message.length - at)) fail('a length runs past the end');
      const end = at + Number(length);
      fields.push({ field, bytes: message.subarray(at, end) });
      at = end;
    } else if (type === FIXED64 || type === FIXED32) {
      at += type === FIXED64 ? 8 : 4;
      if (at > message.length) fail('a fixed-width value runs past the end');
      fields.push({ field, fixed: true });
    } else fail(`wire type ${type} is not supported`);
  }
  return fields;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function text(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BadRequestError(`the request body is not valid protobuf: ${what} is not UTF-8`);
  }
}

/** A signed 64-bit integer as a number; beyond 2^53 it is refused rather than rounded. */
export function int64(value: bigint, what: string): number {
  const signed = BigInt.asIntN(64, value);
  if (signed > BigInt(Number.MAX_SAFE_INTEGER) || signed < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new BadRequestError(`the request body is not valid protobuf: ${what} is out of range`);
  }
  return Number(signed);
}

/** The value of a field that must be length-delimited, or a 400 naming it. */
export function bytesOf(entry: WireField, what: string): Uint8Array {
  if ('bytes' in entry) return entry.bytes;
  throw new BadRequestError(`the request body is not valid protobuf: ${what} has the wrong wire type`);
}

/** The value of a field that must be a varint, or a 400 naming it. */
export function varintOf(entry: WireField, what: string): bigint {
  if ('varint' in entry) return entry.varint;
  throw new BadRequestError(`the request body is not valid protobuf: ${what} has the wrong wire type`);
}
