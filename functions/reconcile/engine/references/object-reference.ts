/** v1beta2 contract references `{apiGroup, kind, name}` (capi-contract.md §1.0), read defensively. */

import { recordAt } from '../../../../shared/contracts/json.js';
import type { GroupKind, KubeObject, ObjectKey } from '../../../../shared/contracts/object.js';

export interface ContractReference {
  apiGroup: string;
  kind: string;
  name: string;
}

/** The reference at `path` (e.g. `spec`, `infrastructureRef`), or undefined when absent or malformed. */
export function readReference(obj: unknown, ...path: string[]): ContractReference | undefined {
  const ref = recordAt(obj, ...path);
  if (!ref) return undefined;
  const { apiGroup, kind, name } = ref;
  if (typeof apiGroup !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || !kind || !name) {
    return undefined;
  }
  return { apiGroup, kind, name };
}

export function referenceKey(ref: ContractReference, namespace: string): ObjectKey {
  return { group: ref.apiGroup, kind: ref.kind, namespace, name: ref.name };
}

export function referenceGroupKind(ref: ContractReference): GroupKind {
  return { group: ref.apiGroup, kind: ref.kind };
}

/** `Kind.group`, the way messages name a kind. */
export function describeReference(ref: ContractReference): string {
  return ref.apiGroup ? `${ref.kind}.${ref.apiGroup}` : ref.kind;
}

export function referenceTo(obj: KubeObject, apiGroup: string): ContractReference {
  return { apiGroup, kind: obj.kind, name: obj.metadata.name };
}
