import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_PAUSED,
  type GroupKind,
  groupOf,
  LABEL_CLUSTER_NAME,
  sameGroupKind,
  type StoredObject,
} from '../../../../shared/contracts/object.js';
import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { AnyReconciler, ReconcilerDefinition, Watch } from './types.js';

/** What of a reconciler decides how its objects pause. */
export type PauseRule = Pick<ReconcilerDefinition<never>, 'kind' | 'pausesWithCluster'>;

export const CONDITION_PAUSED = 'Paused';
/** The kind the cluster-name label names. */
export const CLUSTER_KIND: GroupKind = { group: CORE_GROUP, kind: 'Cluster' };

/**
 * A Cluster's or pool's own pause, the IPAM provider's rule: `spec.paused` (a Cluster's) or the
 * `cluster.x-k8s.io/paused` annotation.
 */
export function isPaused(object: StoredObject): boolean {
  return ownSpecPaused(object) || object.metadata.annotations?.[ANNOTATION_PAUSED] !== undefined;
}

/** The Cluster an object belongs to, by name: `spec.clusterName`, else the cluster-name label, else a Cluster ownerReference. */
export function owningClusterName(object: StoredObject): string | undefined {
  const named = stringAt(object, 'spec', 'clusterName') || object.metadata.labels?.[LABEL_CLUSTER_NAME];
  if (named) return named;
  return (object.metadata.ownerReferences ?? []).find((ref) => ref.kind === CLUSTER_KIND.kind && groupOf(ref.apiVersion) === CORE_GROUP)?.name;
}

/**
 * Cluster API's `paused.EnsurePausedCondition` decision (util/paused): an object is paused when
 * the Cluster it belongs to (or, for a Cluster, itself) has `spec.paused` set or the object has
 * the paused annotation, and the condition says which, in Cluster API's words. A
 * MachineDeployment's own `spec.paused` is not a pause of its reconcile: it stops rollouts only
 * (core/machinedeployment/paused-scale.ts). The Cluster is read through the reconcile's
 * store, so a reconciler that reads it later reads it from the reconcile's cache. A Cluster not
 * (or no longer) there pauses nothing.
 */
export async function pausedCondition(store: ObjectStore, reconciler: PauseRule, object: StoredObject): Promise<ConditionInput> {
  const messages: string[] = [];
  if (reconciler.pausesWithCluster !== false && (await clusterPaused(store, reconciler.kind, object))) messages.push('Cluster spec.paused is set to true');
  if (object.metadata.annotations?.[ANNOTATION_PAUSED] !== undefined) messages.push(`${object.kind} has the ${ANNOTATION_PAUSED} annotation`);
  return messages.length > 0
    ? { type: CONDITION_PAUSED, status: 'True', reason: 'Paused', message: messages.join(', ') }
    : { type: CONDITION_PAUSED, status: 'False', reason: 'NotPaused' };
}

async function clusterPaused(store: ObjectStore, kind: GroupKind, object: StoredObject): Promise<boolean> {
  if (sameGroupKind(kind, CLUSTER_KIND)) return ownSpecPaused(object);
  const name = owningClusterName(object);
  if (!name) return false;
  const cluster = await store.get({ ...CLUSTER_KIND, namespace: object.metadata.namespace, name });
  return cluster !== undefined && ownSpecPaused(cluster);
}

function ownSpecPaused(object: StoredObject): boolean {
  return object.spec?.paused === true;
}

/**
 * What wakes every kind when its Cluster is paused or unpaused (Cluster API's
 * ClusterPausedTransitions predicate): a modification of the Cluster's `spec.paused`, mapped to
 * the Cluster's members. Pausing wakes them to say so in their Paused condition; unpausing to go on.
 */
export const CLUSTER_PAUSE_WATCH: Watch = { kind: CLUSTER_KIND, by: 'clusterMembers', on: ['MODIFY'], changes: ['spec.paused'] };

/** The reconciler with CLUSTER_PAUSE_WATCH added: every kind but the Cluster itself (and one that does not pause with it) follows its Cluster's pause. */
export function withClusterPauseWatch(reconciler: AnyReconciler): AnyReconciler {
  if (sameGroupKind(reconciler.kind, CLUSTER_KIND) || reconciler.pausesWithCluster === false) return reconciler;
  return { ...reconciler, watches: [...reconciler.watches, CLUSTER_PAUSE_WATCH] };
}
