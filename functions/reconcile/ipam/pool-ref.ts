/** Which pool a claim names, where that pool is stored, and whether this provider serves it. */

import type { ObjectKey, StoredObject } from '../../../shared/contracts/object.js';
import { sameGroupKind } from '../../../shared/contracts/object.js';
import type { ContractRef } from '../../../shared/contracts/schemas/common/references.js';
import { CLUSTER_SCOPE_NAMESPACE, GLOBAL_IN_CLUSTER_POOL_KIND, IN_CLUSTER_POOL_KINDS } from './well-known.js';

export function isInClusterPoolRef(ref: ContractRef): boolean {
  return IN_CLUSTER_POOL_KINDS.some((kind) => sameGroupKind(kind, { group: ref.apiGroup, kind: ref.kind }));
}

/** A namespaced pool lives in the claim's namespace; a global one in the cluster scope. */
export function poolKey(ref: ContractRef, claimNamespace: string): ObjectKey {
  const global = sameGroupKind(GLOBAL_IN_CLUSTER_POOL_KIND, { group: ref.apiGroup, kind: ref.kind });
  return { group: ref.apiGroup, kind: ref.kind, namespace: global ? CLUSTER_SCOPE_NAMESPACE : claimNamespace, name: ref.name };
}

export function poolRefOf(pool: StoredObject): ContractRef {
  const group = pool.apiVersion.split('/')[0] ?? '';
  return { apiGroup: group, kind: pool.kind, name: pool.metadata.name };
}
