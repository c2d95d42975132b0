/** In-place edits of plain JSON objects by path, for conversion of untrusted input. */

import { isRecord, type JsonRecord } from '../json.js';

export function getAt(root: unknown, path: readonly string[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (!isRecord(current)) return undefined;
    current = current[segment];
  }
  return current;
}

/** The record at `path`, created (with its parents) when absent; undefined if a non-record is in the way. */
export function ensureRecordAt(root: JsonRecord, path: readonly string[]): JsonRecord | undefined {
  let current: JsonRecord = root;
  for (const segment of path) {
    const next = current[segment];
    if (next === undefined) {
      const created: JsonRecord = {};
      current[segment] = created;
      current = created;
    } else if (isRecord(next)) current = next;
    else return undefined;
  }
  return current;
}

export function setAt(root: JsonRecord, path: readonly string[], value: unknown): void {
  const parent = ensureRecordAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (parent && last !== undefined) parent[last] = value;
}

export function deleteAt(root: unknown, path: readonly string[]): void {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (isRecord(parent) && last !== undefined) delete parent[last];
}

/** Moves `from` to `to` (optionally mapping the value); a no-op when `from` is absent. */
export function moveAt(
  root: JsonRecord,
  from: readonly string[],
  to: readonly string[],
  map: (value: unknown) => unknown = (value) => value,
): void {
  const value = getAt(root, from);
  if (value === undefined) return;
  deleteAt(root, from);
  setAt(root, to, map(value));
}
