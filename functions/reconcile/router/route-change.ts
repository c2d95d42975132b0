import {
  type GroupKind,
  groupOf,
  keyOf,
  keyString,
  LABEL_CLUSTER_NAME,
  type ObjectKey,
  sameGroupKind,
  type StoredObject,
} from '../../../shared/contracts/object.js';
import type { ListQuery, ListResult, ObjectChange } from '../../../shared/ports/object-store.js';
import type { ReconcileRequest } from '../../../shared/ports/work-queue.js';
import type { ReconcilerRegistry } from '../engine/registry.js';
import { CLUSTER_KIND } from '../engine/skeleton/pause.js';
import type { AnyReconciler, ReferrerField, Watch } from '../engine/skeleton/types.js';
import { ownChangeMatters } from './own-change-predicate.js';
import { CROSS_NAMESPACE_REFERRER_FIELDS, NAMESPACE_REFERRER_FIELDS, referencedKey, refersTo } from './references.js';
import { watchedFieldsChanged } from './watched-fields.js';

/** Where a Cluster names the parts it owns that carry no cluster-name label of their own. */
const CLUSTER_MEMBER_REFERENCES: readonly ReferrerField[] = ['spec.infrastructureRef', 'spec.controlPlaneRef'];

/** The store reads the router needs to map a change to the objects that watch it. */
export interface ReferrerLookup {
  get(key: ObjectKey): Promise<StoredObject | undefined>;
  listByCluster(namespace: string, clusterName: string, kind?: GroupKind): Promise<StoredObject[]>;
  list(query: ListQuery): Promise<ListResult>;
}

/**
 * Maps one change to the reconcile requests it causes: the object's own kind (when a reconciler
 * is registered for it and the change passes the own-change predicate) plus, for every
 * reconciler whose `watches` name the changed kind, the objects of that reconciler's kind the
 * watch resolves to. Deduplicated. The router knows no kind by name: watches are data.
 */
export async function routeChange(
  change: ObjectChange,
  registry: ReconcilerRegistry,
  lookup: ReferrerLookup,
): Promise<ReconcileRequest[]> {
  const subject = change.newObject ?? change.oldObject;
  if (!subject) return [];
  const requests = new Map<string, ReconcileRequest>();
  const add = (key: ObjectKey): void => {
    requests.set(keyString(key), key);
  };

  const changedKind: GroupKind = { group: groupOf(subject.apiVersion), kind: subject.kind };
  const own = registry.get(changedKind);
  if (own && ownChangeMatters(change, own)) add(keyOf(subject));

  for (const watcher of registry.all()) {
    for (const watch of watcher.watches) {
      if (!sameGroupKind(watch.kind, changedKind) || !watchedFieldsChanged(watch, change)) continue;
      for (const key of await resolveWatch(watcher, watch, change, lookup)) add(key);
    }
  }
  return [...requests.values()];
}

async function resolveWatch(
  watcher: AnyReconciler,
  watch: Watch,
  change: ObjectChange,
  lookup: ReferrerLookup,
): Promise<ObjectKey[]> {
  const versions = [change.oldObject, change.newObject].filter((o): o is StoredObject => o !== undefined);
  switch (watch.by) {
    case 'owner':
      return versions.flatMap((o) => ownersOfKind(o, watcher.kind));
    case 'clusterLabel':
      return sameClusterKeys(versions, watcher.kind, lookup);
    case 'clusterMembers':
      return clusterMemberKeys(versions, watcher.kind, lookup);
    case 'referrer':
      return referrerKeys(versions, watcher.kind, watch.field, lookup);
    case 'reference':
      return versions.flatMap((o) => referencedKey(o, watch.field, watcher.kind) ?? []);
  }
}

/**
 * Cluster API's mappers go by owner once an object is adopted (resourceToClusterResourceSet; a
 * Cluster's InfraCluster and control plane): a version with owners of the watching kind is
 * answered by them, with no store call. Only a version without one is looked up.
 */
async function referrerKeys(versions: readonly StoredObject[], kind: GroupKind, field: ReferrerField, lookup: ReferrerLookup): Promise<ObjectKey[]> {
  const owners = versions.map((o) => ownersOfKind(o, kind));
  const unowned = versions.filter((_, i) => owners[i]?.length === 0);
  const found = unowned.length > 0 ? await referrers(unowned, kind, field, lookup) : [];
  return [...owners.flat(), ...found.map(keyOf)];
}

function ownersOfKind(object: StoredObject, kind: GroupKind): ObjectKey[] {
  return (object.metadata.ownerReferences ?? [])
    .filter((ref) => ref.kind === kind.kind && groupOf(ref.apiVersion) === kind.group)
    .map((ref) => ({ group: kind.group, kind: kind.kind, namespace: object.metadata.namespace, name: ref.name }));
}

function clusterNamesOf(versions: readonly StoredObject[]): Set<string> {
  const names = new Set<string>();
  for (const o of versions) {
    const label = o.metadata.labels?.[LABEL_CLUSTER_NAME];
    if (label) names.add(label);
  }
  return names;
}

async function inClusters(
  namespace: string,
  clusters: ReadonlySet<string>,
  kind: GroupKind,
  lookup: ReferrerLookup,
): Promise<StoredObject[]> {
  const found: StoredObject[] = [];
  for (const cluster of clusters) {
    const members = await lookup.listByCluster(namespace, cluster, kind);
    found.push(...members.filter((m) => sameGroupKind({ group: groupOf(m.apiVersion), kind: m.kind }, kind)));
  }
  return found;
}

/**
 * The label names a Cluster, so for the Cluster kind itself the key follows from the label (a
 * Cluster does not carry its own label), kept only when that Cluster exists: parts applied before
 * their Cluster (GitOps tools apply dependencies first) change many times before it is there, and
 * a reconcile of a missing Cluster does nothing; a Cluster created after the lookup is woken by
 * its own creation and reads them then. A part a Cluster of that name owns was adopted by it, so
 * the Cluster was there: no lookup (if it went since, its reconcile finds it gone, as the lookup
 * would have). Other kinds are found through the cluster index.
 */
async function sameClusterKeys(
  versions: readonly StoredObject[],
  kind: GroupKind,
  lookup: ReferrerLookup,
): Promise<ObjectKey[]> {
  const first = versions[0];
  if (!first) return [];
  if (sameGroupKind(kind, CLUSTER_KIND)) {
    const owners = new Set(versions.flatMap((o) => ownersOfKind(o, CLUSTER_KIND)).map((key) => key.name));
    const named = [...clusterNamesOf(versions)].map((name) => ({ ...CLUSTER_KIND, namespace: first.metadata.namespace, name }));
    const existing = await Promise.all(named.map(async (key) => (owners.has(key.name) || (await lookup.get(key)) ? [key] : [])));
    return existing.flat();
  }
  return (await sameCluster(versions, kind, lookup)).map(keyOf);
}

async function sameCluster(
  versions: readonly StoredObject[],
  kind: GroupKind,
  lookup: ReferrerLookup,
): Promise<StoredObject[]> {
  const first = versions[0];
  if (!first) return [];
  return inClusters(first.metadata.namespace, clusterNamesOf(versions), kind, lookup);
}

/**
 * The objects of `kind` that belong to the changed Cluster: those whose cluster-name label names
 * it (Cluster API's ClusterToTypedObjectsMapper) and the ones it references as its
 * infrastructure and control plane (ClusterToInfrastructureMapFunc, ClusterToKubeadmControlPlane).
 */
async function clusterMemberKeys(versions: readonly StoredObject[], kind: GroupKind, lookup: ReferrerLookup): Promise<ObjectKey[]> {
  const cluster = versions[versions.length - 1];
  if (!cluster) return [];
  const referenced = CLUSTER_MEMBER_REFERENCES.flatMap((field) => referencedKey(cluster, field, kind) ?? []);
  const labelled = await inClusters(cluster.metadata.namespace, new Set([cluster.metadata.name]), kind, lookup);
  return [...referenced, ...labelled.map(keyOf)];
}

/**
 * Objects of `kind` whose `field` points at the changed object. Cheapest path first: the
 * cluster index (every CAPI object carries the cluster-name label; a Cluster is found by its
 * own name), then a namespace list of the watching kind when the changed object has no label or
 * the referrers carry none (NAMESPACE_REFERRER_FIELDS).
 */
async function referrers(
  versions: readonly StoredObject[],
  kind: GroupKind,
  field: ReferrerField,
  lookup: ReferrerLookup,
): Promise<StoredObject[]> {
  const target = versions[versions.length - 1];
  if (!target) return [];
  const namespace = target.metadata.namespace;
  const clusters = clusterNamesOf(versions);
  if (field === 'spec.clusterName') clusters.add(target.metadata.name);
  const candidates = CROSS_NAMESPACE_REFERRER_FIELDS.has(field)
    ? await listAll(lookup, kind)
    : clusters.size > 0 && !NAMESPACE_REFERRER_FIELDS.has(field)
      ? await inClusters(namespace, clusters, kind, lookup)
      : await listAll(lookup, { ...kind, namespace });
  return candidates.filter((c) => versions.some((v) => refersTo(c, field, v)));
}

async function listAll(lookup: ReferrerLookup, query: ListQuery): Promise<StoredObject[]> {
  const items: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await lookup.list({ ...query, limit: 500, ...(token ? { continue: token } : {}) });
    items.push(...page.items);
    token = page.continue;
  } while (token);
  return items;
}
