import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { ConflictError } from '../../../shared/errors/index.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';

export const NAMESPACE_KIND = { group: '', kind: 'Namespace' } as const;

export function isNamespaceKind(info: KindInfo): boolean {
  return info.group === NAMESPACE_KIND.group && info.kind === NAMESPACE_KIND.kind;
}

/**
 * A Namespace is deleted only once it holds nothing. Kubernetes deletes a namespace's objects with
 * it; capless's namespaces do not hold their objects (any namespace takes objects without a
 * Namespace, ADR 0151), so deleting one that still has objects would leave them all behind, and
 * deleting them behind a user's back (clusters with real machines) is worse: refused with the
 * first object found, one list of at most one item per namespaced kind.
 */
export async function assertNamespaceEmpty(store: ObjectStore, kinds: KindRegistry, namespace: string): Promise<void> {
  for (const info of kinds.all()) {
    if (!info.namespaced || info.readOnly) continue;
    const { items } = await store.list({ group: info.group, kind: info.kind, namespace, limit: 1 });
    const held = items[0];
    if (!held) continue;
    const resource = info.group ? `${info.plural}.${info.group}` : info.plural;
    throw new ConflictError(
      `namespace "${namespace}" still holds objects (${resource} "${held.metadata.name}" among them): capless does not delete a namespace's objects with it; delete them first`,
      { details: { group: NAMESPACE_KIND.group, kind: 'namespaces', name: namespace } },
    );
  }
}
