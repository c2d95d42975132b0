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
