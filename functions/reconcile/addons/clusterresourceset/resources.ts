/**
 * Reading a ClusterResourceSet's resources from its namespace (Cluster API's getResource): a
 * ConfigMap, or a Secret of type `addons.cluster.x-k8s.io/resource-set` (any other type is
 * refused: WrongSecretType). A missing resource is skipped for now and reported.
 */
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { CLUSTER_RESOURCE_SET_SECRET_TYPE, type ResourceRef } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

export type ResourceRead =
  | { ref: ResourceRef; found: StoredObject }
  | { ref: ResourceRef; missing: true }
  | { ref: ResourceRef; wrongSecretType: string };

export async function readResources(store: ObjectStore, namespace: string, refs: readonly ResourceRef[]): Promise<ResourceRead[]> {
  const reads: ResourceRead[] = [];
  for (const ref of refs) {
    const found = await store.get({ group: '', kind: ref.kind, namespace, name: ref.name });
    if (!found) reads.push({ ref, missing: true });
    else if (ref.kind === 'Secret' && found.type !== CLUSTER_RESOURCE_SET_SECRET_TYPE) reads.push({ ref, wrongSecretType: String(found.type ?? 'Opaque') });
    else reads.push({ ref, found });
  }
  return reads;
}
