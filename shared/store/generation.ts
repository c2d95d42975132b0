/** What bumps metadata.generation: `spec`, or `data` for the core kinds that have no spec. */

import { deepEqual } from '../contracts/json.js';
import { groupOf, type KubeObject } from '../contracts/object.js';

const DATA_KINDS = new Set(['Secret', 'ConfigMap']);

/** The top-level field whose changes bump generation for this object's kind. */
export function generationFieldOf(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): 'spec' | 'data' {
  return groupOf(obj.apiVersion) === '' && DATA_KINDS.has(obj.kind) ? 'data' : 'spec';
}

export function generationSourceOf(obj: KubeObject): unknown {
  return (generationFieldOf(obj) === 'data' ? obj.data : obj.spec) ?? null;
}

export function generationSourceChanged(before: KubeObject, after: KubeObject): boolean {
  return !deepEqual(generationSourceOf(before), generationSourceOf(after));
}
