/**
 * A ClusterResourceSetBinding's record of what one ClusterResourceSet applied to one cluster, and
 * the strategies' rule for applying again (resource_reconcile_scope.go needsApply). Pure.
 */
import type { ClusterResourceSetBindingSpec, ResourceBinding, ResourceRef } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';

export type Strategy = 'ApplyOnce' | 'Reconcile';
export type SetBinding = NonNullable<ClusterResourceSetBindingSpec['bindings']>[number];

/** ApplyOnce: until it was applied once. Reconcile: also whenever the resource's hash changed. */
export function needsApply(strategy: Strategy, recorded: ResourceBinding | undefined, hash: string): boolean {
  if (!recorded?.applied) return true;
  return strategy === 'Reconcile' && recorded.hash !== hash;
}

export function recordedResource(binding: SetBinding | undefined, ref: ResourceRef): ResourceBinding | undefined {
  return binding?.resources?.find((r) => r.kind === ref.kind && r.name === ref.name);
}

/** The binding's entries with one resource's record replaced (or added) for the named set. */
export function withResource(bindings: readonly SetBinding[], setName: string, record: ResourceBinding): SetBinding[] {
  const others = bindings.filter((b) => b.clusterResourceSetName !== setName);
  const current = bindings.find((b) => b.clusterResourceSetName === setName);
  const resources = (current?.resources ?? []).filter((r) => !(r.kind === record.kind && r.name === record.name));
  return [...others, { clusterResourceSetName: setName, resources: [...resources, record] }];
}

/** The binding's entries with the named set present (possibly with no resources yet). */
export function withSet(bindings: readonly SetBinding[], setName: string): SetBinding[] {
  return bindings.some((b) => b.clusterResourceSetName === setName) ? [...bindings] : [...bindings, { clusterResourceSetName: setName, resources: [] }];
}

export function withoutSet(bindings: readonly SetBinding[], setName: string): SetBinding[] {
  return bindings.filter((b) => b.clusterResourceSetName !== setName);
}
