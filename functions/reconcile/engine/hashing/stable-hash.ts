/** Deterministic hashes for simulated identities, stable victim order and template hashes. */

import { createHash } from 'node:crypto';
import { isRecord } from '../../../../shared/contracts/json.js';

export function stableHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** JSON with object keys sorted, so equal values always serialize the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A 10-character label-safe hash of any JSON value. */
export function shortHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 10);
}
