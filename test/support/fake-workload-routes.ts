/**
 * The fake workload API's routing: what it serves by group version (discovery), how a path
 * becomes a collection (and a name, a cross-namespace list or a Pod's eviction), and lists with
 * limit / continue and field selectors.
 */
import { isRecord } from '../../shared/contracts/json.js';
import type { StoredItem } from './fake-workload-eviction.js';

export interface ResourceKind {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** What the fake serves, by group version (core is `v1`). */
export const DISCOVERY: Record<string, readonly ResourceKind[]> = {
  v1: [
    { name: 'nodes', kind: 'Node', namespaced: false },
    { name: 'namespaces', kind: 'Namespace', namespaced: false },
    { name: 'pods', kind: 'Pod', namespaced: true },
    { name: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false },
    { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { name: 'secrets', kind: 'Secret', namespaced: true },
    { name: 'services', kind: 'Service', namespaced: true },
    { name: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true },
  ],
  'apps/v1': [
    { name: 'deployments', kind: 'Deployment', namespaced: true },
    { name: 'daemonsets', kind: 'DaemonSet', namespaced: true },
  ],
  'rbac.authorization.k8s.io/v1': [
    { name: 'clusterroles', kind: 'ClusterRole', namespaced: false },
    { name: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
    { name: 'roles', kind: 'Role', namespaced: true },
    { name: 'rolebindings', kind: 'RoleBinding', namespaced: true },
  ],
  'policy/v1': [{ name: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true }],
  'storage.k8s.io/v1': [
    { name: 'storageclasses', kind: 'StorageClass', namespaced: false },
    { name: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false },
  ],
};

export interface Route {
  discovery?: unknown;
  collection?: string;
  name?: string;
  /** A namespaced resource listed across every namespace (`/api/v1/pods`): its plural. */
  acrossNamespaces?: string;
  /** `…/pods/<name>/eviction`. */
  eviction?: boolean;
}

/** `/api/v1[/namespaces/<ns>]/<resource>[/<name>]` and `/apis/<group>/<version>[…]`. */
export function routeOf(path: string): Route {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 1) return { discovery: { kind: 'APIVersions', versions: ['v1'] } };
  if (parts[0] === 'apis' && parts.length === 1) return { discovery: apiGroupList() };
  const prefixLength = parts[0] === 'api' ? 2 : parts[0] === 'apis' ? 3 : 0;
  if (prefixLength === 0 || parts.length < prefixLength) return {};
  const groupVersion = parts.slice(1, prefixLength).join('/');
  const resources = DISCOVERY[groupVersion];
  if (!resources) return {};
  if (parts.length === prefixLength) return { discovery: { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: resources.map((r) => ({ ...r, singularName: '', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update'] })) } };
  return resourceRoute(parts, prefixLength, resources);
}

/** The part after the group version: `[namespaces/<ns>/]<resource>[/<name>[/eviction]]`. */
function resourceRoute(parts: readonly string[], prefixLength: number, resources: readonly ResourceKind[]): Route {
  const rest = parts.slice(prefixLength);
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3;
  const [resource, name, ...extra] = namespaced ? rest.slice(2) : rest;
  const known = resources.find((r) => r.name === resource);
  if (known?.namespaced && !namespaced && !name) return { acrossNamespaces: resource };
  const eviction = known?.name === 'pods' && extra.length === 1 && extra[0] === 'eviction';
  if (!known || known.namespaced !== namespaced || (extra.length > 0 && !eviction)) return {};
  const collection = `/${parts.slice(0, prefixLength).join('/')}${namespaced ? `/namespaces/${rest[1]}` : ''}/${resource}`;
  return { collection, ...(name ? { name } : {}), ...(eviction ? { eviction } : {}) };
}

function apiGroupList(): unknown {
  const groups = Object.keys(DISCOVERY).filter((gv) => gv.includes('/'));
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map((gv) => {
      const [group = '', version = ''] = gv.split('/');
      return { name: group, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } };
    }),
  };
}

/** `fieldSelector=a.b=c,d=e`: equality on dotted paths, as kube-apiserver's field selectors for the fields it indexes. */
function matchesFields(item: StoredItem, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [path = '', wanted] = term.split('=');
    const value = path.split('.').reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), item);
    return String(value ?? '') === wanted;
  });
}

export function listOf(items: Map<string, StoredItem>, query: URLSearchParams): unknown {
  const all = [...items.values()].filter((item) => matchesFields(item, query.get('fieldSelector'))).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const start = Number(query.get('continue') ?? '0') || 0;
  const limit = Number(query.get('limit') ?? '0') || all.length;
  const page = all.slice(start, start + limit);
  const next = start + limit < all.length ? String(start + limit) : undefined;
  return { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1', ...(next ? { continue: next } : {}) }, items: page };
}
