/**
 * A cluster's parts owned by their Cluster, as Cluster API's controllers leave them: a
 * non-controller ownerReference to the Cluster on the MachineDeployment and the MachineHealthCheck
 * (always), on a MachineSet no MachineDeployment controls, and on the templates a
 * MachineDeployment, a MachineSet or a KubeadmControlPlane clones from (`Kind` ending in
 * `Template`, `reconcileExternalTemplateReference`). `clusterctl move` finds what belongs to a
 * cluster by following ownerReferences to its Cluster: a part without one stays on the source.
 * A reference to an earlier Cluster of the same name (another uid) is replaced, as util.EnsureOwnerRef does.
 */

import { groupOf, ownerReferenceTo, type OwnerReference, type StoredObject } from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { PhaseResult, Scope } from '../skeleton/types.js';
import { clusterNameOf } from './cluster-name-label.js';
import { type ContractReference, referenceKey } from './object-reference.js';
import { updateFresh } from './update-fresh.js';

function refersToCluster(ref: OwnerReference, cluster: StoredObject): boolean {
  return groupOf(ref.apiVersion) === CORE_GROUP && ref.kind === 'Cluster' && ref.name === cluster.metadata.name;
}

/** The object with its ownerReference to the Cluster, or undefined when it has it already. */
export function withClusterOwner(object: StoredObject, cluster: StoredObject): StoredObject | undefined {
  const refs = object.metadata.ownerReferences ?? [];
  const existing = refs.find((ref) => refersToCluster(ref, cluster));
  if (existing?.uid === cluster.metadata.uid) return undefined;
  const wanted = ownerReferenceTo(cluster, false);
  const ownerReferences = existing ? refs.map((ref) => (ref === existing ? wanted : ref)) : [...refs, wanted];
  return { ...object, metadata: { ...object.metadata, ownerReferences } };
}

async function clusterOf(s: Scope): Promise<StoredObject | undefined> {
  const name = clusterNameOf(s.object);
  // The skeleton read it for the pause check: this comes from the reconcile's cache (ADR 0146).
  return name ? s.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace: s.object.metadata.namespace, name }) : undefined;
}

/** The object has not been reconciled at its current generation: a new object or a changed spec. */
export function generationUnobserved(object: StoredObject): boolean {
  const observed = object.status?.observedGeneration;
  return observed !== object.metadata.generation;
}

export interface ClusterOwnership {
  /** Whether the object itself is owned by its Cluster (a MachineSet: only without a MachineDeployment). */
  ownsSelf: (object: StoredObject) => boolean;
  /** The template references it clones from. */
  templates: (object: StoredObject) => readonly (ContractReference | undefined)[];
}

/**
 * A phase: the object's own ownerReference goes in its one write (ADR 0140); its templates are
 * read and given theirs when its generation is not yet observed (first reconcile, changed
 * references), not on every run, so a steady object costs no template reads; the MachineSet and
 * the control plane also do it when they make a Machine from them.
 */
export function clusterOwnershipPhase(ownership: ClusterOwnership): (s: Scope) => Promise<PhaseResult> {
  return async (s) => {
    const ownsSelf = ownership.ownsSelf(s.object);
    const templates = generationUnobserved(s.object) ? ownership.templates(s.object) : [];
    if (!ownsSelf && templates.length === 0) return {};
    const cluster = await clusterOf(s);
    if (!cluster) return {};
    const desired = ownsSelf ? withClusterOwner(s.desired ?? s.object, cluster) : undefined;
    if (desired) s.desired = desired;
    await ensureTemplatesOwned(s.ctx.store, s.object.metadata.namespace, templates, cluster);
    return {};
  };
}

/**
 * The templates the object clones from owned by its Cluster (named by `spec.clusterName`): called
 * where it reads them to make a Machine, so the reads come from the reconcile's cache.
 */
export async function ensureTemplatesOwnedByCluster(s: Scope, refs: readonly (ContractReference | undefined)[]): Promise<void> {
  const cluster = await clusterOf(s);
  if (cluster) await ensureTemplatesOwned(s.ctx.store, s.object.metadata.namespace, refs, cluster);
}

/** Each template reference's object owned by the Cluster (a write each, only when missing; a missing template is skipped). */
export async function ensureTemplatesOwned(
  store: ObjectStore,
  namespace: string,
  refs: readonly (ContractReference | undefined)[],
  cluster: StoredObject,
): Promise<void> {
  for (const ref of refs) {
    if (!ref?.kind.endsWith('Template')) continue;
    const template = await store.get(referenceKey(ref, namespace));
    if (template) await updateFresh(store, template, (current) => withClusterOwner(current, cluster));
  }
}
