/** Narrowing helpers for untrusted JSON: type guards instead of casts. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordAt(value: unknown, ...path: string[]): JsonRecord | undefined {
  let current: unknown = value;
  for (const segment of path) {
    if (!isRecord(current)) return undefined;
    current = current[segment];
  }
  return isRecord(current) ? current : undefined;
}

export function valueAt(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const segment of path) {
    if (!isRecord(current)) return undefined;
    current = current[segment];
  }
  return current;
}

export function stringAt(value: unknown, ...path: string[]): string | undefined {
  const found = valueAt(value, ...path);
  return typeof found === 'string' ? found : undefined;
}

export function numberAt(value: unknown, ...path: string[]): number | undefined {
  const found = valueAt(value, ...path);
  return typeof found === 'number' ? found : undefined;
}

export function booleanAt(value: unknown, ...path: string[]): boolean | undefined {
  const found = valueAt(value, ...path);
  return typeof found === 'boolean' ? found : undefined;
}

/** The entries of a map whose values are strings (labels, annotations, matchLabels); anything else is an empty map. */
export function stringEntriesOf(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
    const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
    return keysA.length === keysB.length && keysA.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * A deep copy of a JSON value (what the stores hold: objects, arrays, strings, numbers, booleans,
 * null), equal to `JSON.parse(JSON.stringify(value))`: a key whose value is `undefined` is left
 * out, and `undefined` in an array becomes `null`. Several times faster than `structuredClone`
 * or a JSON round trip (`.scratch`-measured on the benchmark's objects: 8× and 6×), which is why
 * the hot copies (the memory store's answers, the per-reconcile read cache) use it. Not for
 * values that are not plain JSON (Dates, Maps, Buffers): use `clone`.
 */
export function copyJson<T>(value: T): T {
  return copyJsonValue(value) as T;
}

function copyJsonValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = value[i] === undefined ? null : copyJsonValue(value[i]);
    return out;
  }
  if (!isRecord(value)) return value;
  const source = value;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const item = source[key];
    if (item === undefined) continue;
    // A "__proto__" key (JSON.parse makes it an own property) stays a property, not a prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyJsonValue(item), enumerable: true, writable: true, configurable: true });
    else out[key] = copyJsonValue(item);
  }
  return out;
}
