/**
 * Kubernetes' generated protobuf messages read into the JSON objects the API serves, by tables
 * of field number → JSON name and type (the `generated.proto` files of k8s.io/api and
 * k8s.io/apimachinery). Fields a table does not name (managedFields, selfLink) are dropped, as the
 * server drops them from a JSON body; zero-valued scalars are left out, as in Kubernetes' JSON.
 */

import type { JsonRecord } from '../../../../shared/contracts/json.js';
import { BadRequestError } from '../../../../shared/errors/index.js';
import { type WireField, bytesOf, int64, readFields, text, varintOf } from './wire.js';

export type FieldType =
  | 'string'
  | 'bool'
  | 'int64'
  /** meta/v1 Time (seconds, nanos) as RFC 3339 text; an empty one (Go's zero time) is left out. */
  | 'time'
  /** Bytes as base64 text, as JSON carries them. */
  | 'bytes'
  | 'stringMap'
  | 'bytesMap'
  | MessageTable;

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: true;
}

export interface MessageTable {
  [field: number]: FieldSpec;
}

/** Messages nest no deeper than this in any table here (Namespace → status → conditions → time). */
const MAX_DEPTH = 8;

export function readMessage(bytes: Uint8Array, table: MessageTable, what: string, depth = 0): JsonRecord {
  if (depth > MAX_DEPTH) throw new BadRequestError(`the request body is not valid protobuf: ${what} nests too deep`);
  const out: JsonRecord = {};
  // Entries go through a Map: a key such as `__proto__` stays a key, and the structure check refuses it as in a JSON body.
  const maps = new Map<string, Map<string, string>>();
  const lists = new Map<string, unknown[]>();
  for (const entry of readFields(bytes, what)) {
    const spec = table[entry.field];
    if (!spec) continue;
    const path = `${what}.${spec.name}`;
    if (spec.type === 'stringMap' || spec.type === 'bytesMap') {
      const map = maps.get(spec.name) ?? new Map<string, string>();
      map.set(...mapEntry(bytesOf(entry, path), spec.type, path, depth));
      maps.set(spec.name, map);
      continue;
    }
    const value = readValue(entry, spec.type, path, depth);
    if (value === undefined) continue;
    if (!spec.repeated) {
      // Go's generated code writes a plain string or integer field even at its zero value, which
      // means unset, as its JSON leaves it out (omitempty).
      if (value === '' || (spec.type === 'int64' && value === 0)) continue;
      out[spec.name] = value;
      continue;
    }
    const list = lists.get(spec.name) ?? [];
    list.push(value);
    lists.set(spec.name, list);
  }
  for (const [name, map] of maps) out[name] = Object.fromEntries(map);
  for (const [name, list] of lists) out[name] = list;
  return out;
}

function mapEntry(bytes: Uint8Array, type: 'stringMap' | 'bytesMap', what: string, depth: number): [string, string] {
  const pair = readMessage(bytes, { 1: { name: 'key', type: 'string' }, 2: { name: 'value', type: type === 'stringMap' ? 'string' : 'bytes' } }, what, depth + 1);
  return [typeof pair.key === 'string' ? pair.key : '', typeof pair.value === 'string' ? pair.value : ''];
}

function readValue(entry: WireField, type: Exclude<FieldType, 'stringMap' | 'bytesMap'>, what: string, depth: number): unknown {
  switch (type) {
    case 'string':
      return text(bytesOf(entry, what), what);
    case 'bool':
      return varintOf(entry, what) !== 0n;
    case 'int64':
      return int64(varintOf(entry, what), what);
    case 'bytes':
      return Buffer.from(bytesOf(entry, what)).toString('base64');
    case 'time':
      return timeOf(bytesOf(entry, what), what);
    default:
      return readMessage(bytesOf(entry, what), type, what, depth + 1);
  }
}

const TIME: MessageTable = { 1: { name: 'seconds', type: 'int64' }, 2: { name: 'nanos', type: 'int64' } };

function timeOf(bytes: Uint8Array, what: string): string | undefined {
  if (bytes.length === 0) return undefined;
  const { seconds } = readMessage(bytes, TIME, what);
  const millis = (typeof seconds === 'number' ? seconds : 0) * 1000;
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) throw new BadRequestError(`the request body is not valid protobuf: ${what} is out of range`);
  // Kubernetes' JSON carries whole seconds.
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
