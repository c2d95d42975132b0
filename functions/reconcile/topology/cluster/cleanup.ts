/**
 * What the topology no longer wants: MachineDeployments removed from `spec.topology` (and their
 * health checks), a health check the class no longer defines, and cloned templates that nothing
 * uses any more (not the control plane, no MachineDeployment, no MachineSet still rolling away
 * from them). Level-triggered: recomputed from the store every reconcile.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import { groupOf, type GroupKind, isDeleting, keyOf, type KubeObject, type StoredObject } from '../../../../shared/contracts/object.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { LABEL_TOPOLOGY_OWNED } from '../../../../shared/contracts/topology/well-known.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

export async function deleteIfPresent(store: ObjectStore, object: StoredObject): Promise<void> {
  if (isDeleting(object)) return;
  try {
    await store.delete(keyOf(object));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

const HEALTH_CHECK: GroupKind = { group: CLUSTER_GROUP, kind: 'MachineHealthCheck' };

/** Topology-owned MachineHealthChecks of the cluster whose name is not in `wanted`. */
export async function deleteUnwantedHealthChecks(store: ObjectStore, namespace: string, clusterName: string, wanted: ReadonlySet<string>): Promise<void> {
  const checks = await store.listByCluster(namespace, clusterName, HEALTH_CHECK);
  for (const check of checks) {
    if (check.metadata.labels?.[LABEL_TOPOLOGY_OWNED] !== undefined && !wanted.has(check.metadata.name)) await deleteIfPresent(store, check);
  }
}

/** `kind/name` of every template some holder still references. */
export function referencedTemplates(holders: readonly KubeObject[]): Set<string> {
  const refs = new Set<string>();
  const add = (kind: string | undefined, name: string | undefined) => {
    if (kind && name) refs.add(`${kind}/${name}`);
  };
  for (const holder of holders) {
    add(stringAt(holder.spec, 'machineTemplate', 'spec', 'infrastructureRef', 'kind'), stringAt(holder.spec, 'machineTemplate', 'spec', 'infrastructureRef', 'name'));
    add(stringAt(holder.spec, 'template', 'spec', 'infrastructureRef', 'kind'), stringAt(holder.spec, 'template', 'spec', 'infrastructureRef', 'name'));
    add(stringAt(holder.spec, 'template', 'spec', 'bootstrap', 'configRef', 'kind'), stringAt(holder.spec, 'template', 'spec', 'bootstrap', 'configRef', 'name'));
  }
  return refs;
}

/** Deletes topology-owned templates of these kinds that no holder references. */
export async function deleteUnusedTemplates(
  store: ObjectStore,
  namespace: string,
  clusterName: string,
  templateKinds: readonly KubeObject[],
  holders: readonly KubeObject[],
): Promise<void> {
  const used = referencedTemplates(holders);
  const kinds = new Map(templateKinds.map((t) => [`${groupOf(t.apiVersion)}/${t.kind}`, { group: groupOf(t.apiVersion), kind: t.kind }]));
  for (const kind of kinds.values()) {
    for (const template of await store.listByCluster(namespace, clusterName, kind)) {
      if (template.metadata.labels?.[LABEL_TOPOLOGY_OWNED] === undefined) continue;
      if (!used.has(`${template.kind}/${template.metadata.name}`)) await deleteIfPresent(store, template);
    }
  }
}
