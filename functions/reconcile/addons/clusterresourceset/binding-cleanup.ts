/**
 * Bindings outliving what they bind: a Cluster that is gone or deleting takes its binding with it
 * (Cluster API's ClusterResourceSetBinding controller); a ClusterResourceSet being deleted leaves
 * every binding it is in (its entry and owner reference removed; an empty binding is deleted).
 */
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { withoutSet } from './binding-entries.js';
import { BINDING_KIND, bindingEntriesOf, deleteBinding } from './bindings-store.js';
import type { ClusterResourceSetScope } from './scope.js';

async function bindingsOfSet(s: ClusterResourceSetScope): Promise<StoredObject[]> {
  const { items } = await s.ctx.store.list({ ...BINDING_KIND, namespace: s.object.metadata.namespace });
  return items.filter((b) => bindingEntriesOf(b).some((e) => e.clusterResourceSetName === s.object.metadata.name) || (b.metadata.ownerReferences ?? []).some((r) => r.uid === s.object.metadata.uid));
}

export async function deleteBindingsOfGoneClustersPhase(s: ClusterResourceSetScope): Promise<PhaseResult> {
  for (const binding of await bindingsOfSet(s)) {
    const cluster = await s.ctx.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: binding.metadata.namespace, name: binding.metadata.name });
    if (!cluster || isDeleting(cluster)) await deleteBinding(s.ctx.store, binding);
  }
  return {};
}

export async function leaveBindingsPhase(s: ClusterResourceSetScope): Promise<PhaseResult> {
  for (const binding of await bindingsOfSet(s)) {
    const entries = withoutSet(bindingEntriesOf(binding), s.object.metadata.name);
    if (entries.length === 0) {
      await deleteBinding(s.ctx.store, binding);
      continue;
    }
    const ownerReferences = (binding.metadata.ownerReferences ?? []).filter((r) => r.uid !== s.object.metadata.uid);
    await s.ctx.store.update({ ...binding, metadata: { ...binding.metadata, ownerReferences }, spec: { ...binding.spec, bindings: entries } });
  }
  return {};
}
