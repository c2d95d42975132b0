/** What bumps metadata.generation: `spec`, or `data` for the core kinds that have no spec. */

import type { KubeObject } from '../contracts/object.js';
import { deepEqual } from '../contracts/json.js';
import { groupOf } from '../contracts/object.js';

const DATA_KINDS = new Set(['Secret', 'ConfigMap']);

export function generationSourceOf(obj: KubeObject): unknown {
  const coreDataKind = groupOf(obj.apiVersion) === '' && DATA_KINDS.has(obj.kind);
  return coreDataKind ? (obj.data ?? null) : (obj.spec ?? null);
}

export function generationSourceChanged(before: KubeObject, after: KubeObject): boolean {
  return !deepEqual(generationSourceOf(before), generationSourceOf(after));
}
