import { isRecord } from '../../../shared/contracts/json.js';
import { ownValue, setOwn } from './own-properties.js';

/** RFC 7386 JSON Merge Patch; reads and writes only own properties (see own-properties.ts). */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setOwn(result, key, applyMergePatch(ownValue(result, key), value));
  }
  return result;
}
