import { isRecord } from '../../../shared/contracts/json.js';

/**
 * Property access for patches: only a document's own data properties are ever read or written,
 * so no patch path or key reaches `Object.prototype` (`__proto__`, `constructor.prototype`).
 */
export function ownValue(container: unknown, key: string): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(key);
    return index === undefined ? undefined : container[index];
  }
  if (isRecord(container) && Object.hasOwn(container, key)) return container[key];
  return undefined;
}

/**
 * Defines `key` as an own data property: never invokes a setter such as `__proto__`'s (the API
 * refuses that key at the edge, input/structure-limits.ts; this holds even where it was not).
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A JSON Pointer array index: decimal digits without a leading zero (RFC 6901), else undefined. */
export function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]{0,8})$/.test(token) ? Number(token) : undefined;
}
