import { type GroupKind, groupOf, sameGroupKind, type StoredObject } from '../contracts/object.js';
import type { ClusterKinds } from '../ports/object-store.js';

/** The kinds of a cluster list as a list, without repeats; undefined for every kind. */
export function kindList(kinds: ClusterKinds | undefined): readonly GroupKind[] | undefined {
  if (kinds === undefined) return undefined;
  const list: readonly GroupKind[] = isKindArray(kinds) ? kinds : [kinds];
  return [...new Map(list.map((k) => [`${k.group}/${k.kind}`, k])).values()];
}

function isKindArray(kinds: ClusterKinds): kinds is readonly GroupKind[] {
  return Array.isArray(kinds);
}

/** Whether the object is of one of the kinds (every object is, when there are none given). */
export function isOfKinds(object: StoredObject, kinds: readonly GroupKind[] | undefined): boolean {
  if (!kinds) return true;
  const own = { group: groupOf(object.apiVersion), kind: object.kind };
  return kinds.some((k) => sameGroupKind(k, own));
}
