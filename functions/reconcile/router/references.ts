import { isRecord, stringAt, valueAt } from '../../../shared/contracts/json.js';
import { type GroupKind, groupOf, type ObjectKey, type StoredObject } from '../../../shared/contracts/object.js';
import { clusterSelectorView, resourceRefsView } from '../../../shared/contracts/schemas/addons/cluster-resource-set.js';
import { isEmptySelector, selectorMatches } from '../../../shared/contracts/validation/label-selector.js';
import type { ReferrerField } from '../engine/skeleton/types.js';

/**
 * Fields by which an object in any namespace names a cluster-scoped one (stored under
 * CLUSTER_SCOPE_NAMESPACE): their referrers are looked for in every namespace.
 */
export const CROSS_NAMESPACE_REFERRER_FIELDS: ReadonlySet<ReferrerField> = new Set(['spec.patches.external.discoverVariablesExtension']);

/**
 * Fields whose referrers carry no cluster-name label (a ClusterResourceSet belongs to no one
 * cluster): their referrers are looked for with a list of the changed object's namespace.
 */
export const NAMESPACE_REFERRER_FIELDS: ReadonlySet<ReferrerField> = new Set(['spec.clusterSelector', 'spec.resources']);

/**
 * Does `referrer` point at `target` through `field`? Object references are
 * `{apiGroup | apiVersion, kind, name}` in the referrer's namespace; `spec.clusterName` names a
 * Cluster by name; a ClusterClass's `discoverVariablesExtension` names a handler of an
 * ExtensionConfig in any namespace.
 */
export function refersTo(referrer: StoredObject, field: ReferrerField, target: StoredObject): boolean {
  if (field === 'spec.patches.external.discoverVariablesExtension') return discoversVariablesThrough(referrer, target);
  if (referrer.metadata.namespace !== target.metadata.namespace) return false;
  if (field === 'spec.clusterName') {
    return target.kind === 'Cluster' && stringAt(referrer, 'spec', 'clusterName') === target.metadata.name;
  }
  if (field === 'spec.topology.classRef') return classRefersTo(referrer, target);
  if (field === 'spec.clusterSelector') return selectsByLabels(referrer, target);
  if (field === 'spec.resources') return namesAsResource(referrer, target);
  const ref = valueAt(referrer, ...field.split('.'));
  if (!isRecord(ref)) return false;
  if (ref.kind !== target.kind || ref.name !== target.metadata.name) return false;
  const group =
    typeof ref.apiGroup === 'string'
      ? ref.apiGroup
      : typeof ref.apiVersion === 'string'
        ? groupOf(ref.apiVersion)
        : undefined;
  return group === undefined || group === groupOf(target.apiVersion);
}

/** `spec.topology.classRef {name, namespace?}` names a ClusterClass (namespace defaults to the Cluster's). */
function classRefersTo(referrer: StoredObject, target: StoredObject): boolean {
  if (target.kind !== 'ClusterClass') return false;
  const name = stringAt(referrer, 'spec', 'topology', 'classRef', 'name');
  const namespace = stringAt(referrer, 'spec', 'topology', 'classRef', 'namespace') || referrer.metadata.namespace;
  return name === target.metadata.name && namespace === target.metadata.namespace;
}

/**
 * `spec.clusterSelector` matches the target's labels (Cluster API's clusterToClusterResourceSet).
 * An empty selector selects nothing; Cluster API's mapper then drops every set of the namespace,
 * here only that one.
 */
function selectsByLabels(referrer: StoredObject, target: StoredObject): boolean {
  const selector = clusterSelectorView.safeParse(valueAt(referrer, 'spec', 'clusterSelector'));
  if (!selector.success || isEmptySelector(selector.data)) return false;
  return selectorMatches(selector.data, target.metadata.labels ?? {});
}

/** `spec.resources` lists the target, a core-group object, by kind and name (resourceToClusterResourceSetFunc). */
function namesAsResource(referrer: StoredObject, target: StoredObject): boolean {
  if (groupOf(target.apiVersion) !== '') return false;
  const resources = resourceRefsView.safeParse(valueAt(referrer, 'spec', 'resources'));
  return resources.success && resources.data.some((r) => r.kind === target.kind && r.name === target.metadata.name);
}

/**
 * A ClusterClass patch's `external.discoverVariablesExtension` names a handler of a (cluster-scoped)
 * ExtensionConfig as `<handler>.<extension config>`: Cluster API's ExtensionNameFromHandlerName,
 * which takes exactly two dot-separated parts. The ExtensionConfig's namespaceSelector is not
 * applied here: a ClusterClass outside it is woken too and finds the same answer again.
 */
function discoversVariablesThrough(referrer: StoredObject, target: StoredObject): boolean {
  if (target.kind !== 'ExtensionConfig') return false;
  const patches = valueAt(referrer, 'spec', 'patches');
  if (!Array.isArray(patches)) return false;
  return patches.some((patch) => {
    const handler = isRecord(patch) && isRecord(patch.external) ? patch.external.discoverVariablesExtension : undefined;
    if (typeof handler !== 'string') return false;
    const parts = handler.split('.');
    return parts.length === 2 && parts[1] === target.metadata.name;
  });
}

/** The object of `kind` that `source` names through `field`, if it names one of that kind. */
export function referencedKey(source: StoredObject, field: ReferrerField, kind: GroupKind): ObjectKey | undefined {
  if (NAMESPACE_REFERRER_FIELDS.has(field)) return undefined;
  const namespace = source.metadata.namespace;
  if (field === 'spec.clusterName') {
    const name = stringAt(source, 'spec', 'clusterName');
    return name && kind.kind === 'Cluster' && kind.group === 'cluster.x-k8s.io' ? { ...kind, namespace, name } : undefined;
  }
  if (field === 'spec.topology.classRef') {
    const name = stringAt(source, 'spec', 'topology', 'classRef', 'name');
    return name && kind.kind === 'ClusterClass' && kind.group === 'cluster.x-k8s.io' ? { ...kind, namespace, name } : undefined;
  }
  const ref = valueAt(source, ...field.split('.'));
  if (!isRecord(ref) || ref.kind !== kind.kind || typeof ref.name !== 'string') return undefined;
  const group =
    typeof ref.apiGroup === 'string'
      ? ref.apiGroup
      : typeof ref.apiVersion === 'string'
        ? groupOf(ref.apiVersion)
        : undefined;
  return group === undefined || group === kind.group ? { group: kind.group, kind: kind.kind, namespace, name: ref.name } : undefined;
}
