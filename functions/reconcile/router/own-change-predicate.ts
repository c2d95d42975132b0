import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { deepEqual, isRecord, valueAt } from '../../../shared/contracts/json.js';
import type { OwnConditionReads } from '../engine/skeleton/types.js';
import { groupOf, type OwnerReference, type StoredObject } from '../../../shared/contracts/object.js';

const CLUSTER_GROUP = 'cluster.x-k8s.io';
import type { ObjectChange } from '../../../shared/ports/object-store.js';

/** What a reconciler writes on its own object and goes on past: the echoes of those writes. */
export interface OwnWriteEchoes {
  finalizer?: string;
  fillsOwnSpec?: readonly string[];
  fillsOwnLabels?: readonly string[];
  fillsOwnClusterOwner?: boolean;
  ignoresOwnAnnotations?: readonly string[];
  readsOwnConditions?: OwnConditionReads;
}

/**
 * controller-runtime's GenerationChanged + metadata predicates for an object's OWN reconciler:
 * creations always count. A removal never does: the reconcile it would start reads the object,
 * finds it gone and stops there (runReconcile), as Cluster API's reconcilers return on NotFound;
 * what a removal means to others reaches them through their watches (ADR 0141). A modification
 * counts only when something a reconciler acts on changed. A status-only write (and the
 * resourceVersion bump that comes with it) does not, so a reconciler's own status write never
 * re-triggers it; nor does its finalizer being added, nor a write that only fills in the spec
 * fields (`fillsOwnSpec`, ADR 0134) or labels (`fillsOwnLabels`, ADR 0137) it fills in itself,
 * nor its Cluster's ownerReference (`fillsOwnClusterOwner`, ADR 0151), nor annotations it
 * does not act on (`ignoresOwnAnnotations`, ADR 0161). A status write that changes a condition
 * others write and it summarises (`readsOwnConditions`, ADR 0173) does.
 */
export function ownChangeMatters(change: ObjectChange, echoes: OwnWriteEchoes = {}): boolean {
  if (change.type === 'REMOVE') return false;
  if (change.type !== 'MODIFY' || !change.oldObject || !change.newObject) return true;
  const before = change.oldObject.metadata;
  const after = change.newObject.metadata;
  return (
    (before.generation !== after.generation && !onlyFilledIn(change.oldObject, change.newObject, echoes.fillsOwnSpec ?? [])) ||
    before.deletionTimestamp !== after.deletionTimestamp ||
    !sameLabelsBut(before.labels ?? {}, after.labels ?? {}, echoes.fillsOwnLabels ?? []) ||
    !sameAnnotationsBut(before.annotations ?? {}, after.annotations ?? {}, echoes.ignoresOwnAnnotations ?? []) ||
    (!deepEqual(before.finalizers ?? [], after.finalizers ?? []) && !onlyAdded(before.finalizers ?? [], after.finalizers ?? [], echoes.finalizer)) ||
    !sameOwnersBut(before.ownerReferences ?? [], after.ownerReferences ?? [], echoes.fillsOwnClusterOwner === true) ||
    (echoes.readsOwnConditions !== undefined && readConditionsChanged(change.oldObject, change.newObject, echoes.readsOwnConditions))
  );
}

/** Whether a condition `reads` names (in either version) appeared, went, or changed status, reason or message. */
function readConditionsChanged(before: StoredObject, after: StoredObject, reads: OwnConditionReads): boolean {
  const types = new Set([...reads.types, ...listedTypes(before, reads), ...listedTypes(after, reads)]);
  const was = conditionsOf(before.status);
  const is = conditionsOf(after.status);
  const gist = (c: { status: string; reason: string; message?: string } | undefined) => c && [c.status, c.reason, c.message ?? ''];
  return [...types].some((type) => !deepEqual(gist(findCondition(was, type)), gist(findCondition(is, type))));
}

function listedTypes(object: StoredObject, reads: OwnConditionReads): string[] {
  if (!reads.typesListedAt) return [];
  const list = valueAt(object, ...reads.typesListedAt.split('.'));
  return Array.isArray(list) ? list.flatMap((entry) => (isRecord(entry) && typeof entry.conditionType === 'string' ? [entry.conditionType] : [])) : [];
}

/**
 * Equal ownerReferences, or (for a reconciler that makes its Cluster an owner, ADR 0151) ones that
 * differ only in the reference to a Cluster, which is now there.
 */
function sameOwnersBut(before: readonly OwnerReference[], after: readonly OwnerReference[], clusterFilled: boolean): boolean {
  if (deepEqual(before, after)) return true;
  if (!clusterFilled) return false;
  const isCluster = (ref: OwnerReference) => ref.kind === 'Cluster' && groupOf(ref.apiVersion) === CLUSTER_GROUP;
  return after.some(isCluster) && deepEqual(before.filter((r) => !isCluster(r)), after.filter((r) => !isCluster(r)));
}

/** Equal labels, or labels that differ only in `filled` keys that went from absent to set. */
function sameLabelsBut(before: Record<string, string>, after: Record<string, string>, filled: readonly string[]): boolean {
  const rest = { ...after };
  for (const key of filled) if (before[key] === undefined) delete rest[key];
  return deepEqual(before, rest);
}

/** Equal annotations once the `derived` keys, whatever they hold, are left out of both. */
function sameAnnotationsBut(before: Record<string, string>, after: Record<string, string>, derived: readonly string[]): boolean {
  if (derived.length === 0) return deepEqual(before, after);
  const rest = (annotations: Record<string, string>) => Object.fromEntries(Object.entries(annotations).filter(([key]) => !derived.includes(key)));
  return deepEqual(rest(before), rest(after));
}

/**
 * The reconciler's own finalizer appended and nothing else: the echo of its first reconcile, which
 * adds the finalizer and goes on with its phases in the same run, so the change tells it nothing.
 */
function onlyAdded(before: readonly string[], after: readonly string[], finalizer: string | undefined): boolean {
  return finalizer !== undefined && !before.includes(finalizer) && deepEqual([...before, finalizer], after);
}

/**
 * The spec changed only where `paths` went from absent to set: the echo of the reconciler's own
 * write, which it made and went on past in the same run. A path that was set and changed, or any
 * other spec change, is not.
 */
function onlyFilledIn(before: StoredObject, after: StoredObject, paths: readonly string[]): boolean {
  let filled = false;
  let beforeRest: unknown = before.spec;
  let afterRest: unknown = after.spec;
  for (const path of paths) {
    const [root, ...segments] = path.split('.');
    if (root !== 'spec' || segments.length === 0) return false;
    const was = valueAt(before.spec, ...segments);
    const is = valueAt(after.spec, ...segments);
    if (deepEqual(was, is)) continue;
    if (was !== undefined) return false;
    filled = true;
    beforeRest = without(beforeRest, segments);
    afterRest = without(afterRest, segments);
  }
  return filled && deepEqual(beforeRest, afterRest);
}

/**
 * A copy of `value` without the field at `segments`, copied only along that path; a parent left
 * empty goes too (filling in `bootstrap.dataSecretName` may create `bootstrap`).
 */
function without(value: unknown, segments: readonly string[]): unknown {
  const [head, ...rest] = segments;
  if (head === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  const inner = copy[head];
  delete copy[head];
  if (rest.length === 0 || inner === undefined) return copy;
  const remaining = without(inner, rest);
  const empty = typeof remaining === 'object' && remaining !== null && Object.keys(remaining).length === 0;
  return empty ? copy : { ...copy, [head]: remaining };
}
