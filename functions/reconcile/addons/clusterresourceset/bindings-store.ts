/**
 * ClusterResourceSetBindings in the store: one per Cluster (named after it), owned by every
 * ClusterResourceSet that applied to it (Cluster API's getOrCreateClusterResourceSetBinding).
 */
import { type KubeObject, type OwnerReference, type StoredObject, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { clusterResourceSetBindingSpecView } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import { ADDONS_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { isAlreadyExists, isNotFound } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { SetBinding } from './binding-entries.js';

export const BINDING_KIND = { group: ADDONS_GROUP, kind: 'ClusterResourceSetBinding' } as const;

export function bindingEntriesOf(binding: StoredObject): SetBinding[] {
  const parsed = clusterResourceSetBindingSpecView.safeParse(binding.spec ?? {});
  return parsed.success ? (parsed.data.bindings ?? []) : [];
}

/** The Cluster's binding, created (owned by the set) when there is none. */
export async function getOrCreateBinding(store: ObjectStore, cluster: StoredObject, set: StoredObject): Promise<StoredObject> {
  const key = { ...BINDING_KIND, namespace: cluster.metadata.namespace, name: cluster.metadata.name };
  const existing = await store.get(key);
  if (existing) return existing;
  const binding: KubeObject = {
    apiVersion: `${ADDONS_GROUP}/v1beta2`,
    kind: BINDING_KIND.kind,
    metadata: { name: cluster.metadata.name, namespace: cluster.metadata.namespace, ownerReferences: [ownerReferenceTo(set, false)] },
    spec: { clusterName: cluster.metadata.name, bindings: [] },
  };
  try {
    return await store.create(binding);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    const raced = await store.get(key);
    if (!raced) throw error;
    return raced;
  }
}

/** Owner references with the set's added once (util.EnsureOwnerRef). */
export function withOwner(references: readonly OwnerReference[] | undefined, set: StoredObject): OwnerReference[] {
  const current = references ?? [];
  return current.some((r) => r.uid === set.metadata.uid) ? [...current] : [...current, ownerReferenceTo(set, false)];
}

/** Deletes a binding; gone already is fine. */
export async function deleteBinding(store: ObjectStore, binding: StoredObject): Promise<void> {
  try {
    await store.delete({ ...BINDING_KIND, namespace: binding.metadata.namespace, name: binding.metadata.name });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
