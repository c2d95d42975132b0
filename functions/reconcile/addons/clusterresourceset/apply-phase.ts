/**
 * ClusterResourceSet → matching Clusters (Cluster API's ClusterResourceSet reconcile and
 * ApplyClusterResourceSet): Clusters of the set's namespace its non-empty `clusterSelector`
 * matches, not deleting, whose control plane is initialized; each resource whose binding record
 * says it needs applying (ApplyOnce: not applied yet; Reconcile: also a changed hash) is applied to
 * the workload cluster, and the Cluster's ClusterResourceSetBinding records applied/hash/time.
 * The record is written after the apply, so a crash in between applies again (create-only or
 * merge: harmless) and never records what was not applied.
 */
import { isConditionTrue, conditionsOf } from '../../../../shared/contracts/conditions.js';
import { booleanAt, deepEqual } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ResourceBinding, ResourceRef } from '../../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import { isEmptySelector, selectorMatches } from '../../../../shared/contracts/validation/label-selector.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { type ApplyFailure, isWorkloadClusterError } from '../../../../shared/ports/workload-cluster.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { needsApply, recordedResource, type SetBinding, type Strategy, withResource, withSet } from './binding-entries.js';
import { bindingEntriesOf, getOrCreateBinding, withOwner } from './bindings-store.js';
import { objectsOf, normalizeResourceData } from './resource-data.js';
import { type ResourceRead, readResources } from './resources.js';
import type { ClusterResourceSetScope } from './scope.js';

export const CONDITION_RESOURCES_APPLIED = 'ResourcesApplied';
/** A workload cluster that cannot be reached yet is tried again after this long. */
export const WORKLOAD_RETRY_SECONDS = 10;
/** A resource that does not exist yet is looked for again after this long (its creation also wakes the set). */
export const MISSING_RESOURCE_REQUEUE_SECONDS = 30;

type Problem = { reason: 'WrongSecretType' | 'InternalError' | 'NotApplied'; message: string; requeueAfterSeconds?: number };

/** Clusters the set selects (an empty selector selects none, as in Cluster API). */
export async function selectedClusters(s: ClusterResourceSetScope): Promise<StoredObject[]> {
  const selector = s.spec?.clusterSelector;
  if (!selector || isEmptySelector(selector)) return [];
  const { items } = await s.ctx.store.list({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: s.object.metadata.namespace });
  return items.filter((c) => !isDeleting(c) && selectorMatches(selector, c.metadata.labels ?? {}));
}

export function controlPlaneInitialized(cluster: StoredObject): boolean {
  return booleanAt(cluster, 'status', 'initialization', 'controlPlaneInitialized') === true || isConditionTrue(conditionsOf(cluster.status), 'ControlPlaneInitialized');
}

export async function applyToClustersPhase(s: ClusterResourceSetScope): Promise<PhaseResult> {
  if (!s.spec) {
    s.conditions.push({ type: CONDITION_RESOURCES_APPLIED, status: 'False', reason: 'InternalError', message: 'the spec does not parse' });
    return { stop: true };
  }
  const clusters = (await selectedClusters(s)).filter(controlPlaneInitialized);
  if (clusters.length === 0) return {};
  const reads = await readResources(s.ctx.store, s.object.metadata.namespace, s.spec.resources);
  const problems: Problem[] = reads.flatMap(readProblem);
  if (problems.some((p) => p.reason === 'WrongSecretType')) return report(s, problems);
  for (const cluster of clusters) problems.push(...(await applyToCluster(s, cluster, reads)));
  return report(s, problems);
}

function readProblem(read: ResourceRead): Problem[] {
  if ('wrongSecretType' in read) return [{ reason: 'WrongSecretType', message: `Secret type of resource ${read.ref.name} is not supported (${read.wrongSecretType})` }];
  if ('missing' in read) return [{ reason: 'InternalError', message: `${read.ref.kind} ${read.ref.name} not found`, requeueAfterSeconds: MISSING_RESOURCE_REQUEUE_SECONDS }];
  return [];
}

async function applyToCluster(s: ClusterResourceSetScope, cluster: StoredObject, reads: readonly ResourceRead[]): Promise<Problem[]> {
  const binding = await getOrCreateBinding(s.ctx.store, cluster, s.object);
  let entries = withSet(bindingEntriesOf(binding), s.object.metadata.name);
  const problems: Problem[] = [];
  for (const read of reads) {
    if (!('found' in read)) continue;
    const outcome = await applyResource(s, cluster, read.ref, read.found, entries);
    entries = outcome.entries;
    problems.push(...outcome.problems);
    if (outcome.unreachable) break;
  }
  await saveBinding(s, binding, entries);
  return problems;
}

interface ResourceOutcome {
  entries: SetBinding[];
  problems: Problem[];
  /** The workload cluster could not be reached: the other resources wait for the retry. */
  unreachable?: boolean;
}

/** One resource to one cluster, when its record says so; the record as it now stands. */
async function applyResource(s: ClusterResourceSetScope, cluster: StoredObject, ref: ResourceRef, resource: StoredObject, entries: SetBinding[]): Promise<ResourceOutcome> {
  const setName = s.object.metadata.name;
  const strategy: Strategy = s.spec?.strategy ?? 'ApplyOnce';
  const data = normalizeResourceData({ kind: ref.kind, data: resource.data });
  const recorded = recordedResource(entries.find((b) => b.clusterResourceSetName === setName), ref);
  if ('hash' in data && !needsApply(strategy, recorded, data.hash)) return { entries, problems: [] };
  const objects = 'error' in data ? data : objectsOf(data.values);
  const now = timestamp(s.ctx.clock);
  if ('error' in objects) {
    return { entries: withResource(entries, setName, { ...ref, applied: false, lastAppliedTime: now }), problems: [{ reason: 'NotApplied', message: `${ref.kind} ${ref.name}: ${objects.error}` }] };
  }
  const target = { namespace: cluster.metadata.namespace, name: cluster.metadata.name };
  let failures: ApplyFailure[];
  try {
    failures = await s.workloadCluster.applyObjects(target, objects, { mode: strategy === 'ApplyOnce' ? 'CreateOnly' : 'CreateOrUpdate' });
  } catch (error) {
    if (!isWorkloadClusterError(error)) throw error;
    return { entries, problems: [{ reason: 'NotApplied', message: `Cluster ${cluster.metadata.name}: ${error.message}`, requeueAfterSeconds: WORKLOAD_RETRY_SECONDS }], unreachable: true };
  }
  const record: ResourceBinding = { ...ref, applied: failures.length === 0, ...('hash' in data ? { hash: data.hash } : {}), lastAppliedTime: now };
  return {
    entries: withResource(entries, setName, record),
    problems: failures.map((f) => ({ reason: 'NotApplied' as const, message: `Cluster ${cluster.metadata.name}: ${f.message}`, requeueAfterSeconds: WORKLOAD_RETRY_SECONDS })),
  };
}

async function saveBinding(s: ClusterResourceSetScope, binding: StoredObject, entries: SetBinding[]): Promise<void> {
  const ownerReferences = withOwner(binding.metadata.ownerReferences, s.object);
  const spec = { ...binding.spec, clusterName: binding.metadata.name, bindings: entries };
  if (deepEqual(spec, binding.spec) && deepEqual(ownerReferences, binding.metadata.ownerReferences)) return;
  await s.ctx.store.update({ ...binding, metadata: { ...binding.metadata, ownerReferences }, spec });
}

/** ResourcesApplied as Cluster API sets it: True/Applied, or the first problem's reason. */
function report(s: ClusterResourceSetScope, problems: readonly Problem[]): PhaseResult {
  const first = problems[0];
  if (!first) {
    s.conditions.push({ type: CONDITION_RESOURCES_APPLIED, status: 'True', reason: 'Applied' });
    return {};
  }
  s.conditions.push({ type: CONDITION_RESOURCES_APPLIED, status: 'False', reason: first.reason, message: problems.map((p) => p.message).join('; ') });
  const waits = problems.flatMap((p) => (p.requeueAfterSeconds ? [p.requeueAfterSeconds] : []));
  return waits.length > 0 ? { requeueAfterSeconds: Math.min(...waits) } : {};
}
