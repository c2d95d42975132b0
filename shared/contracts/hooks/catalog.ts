/**
 * The Runtime SDK hook catalog, `hooks.runtime.cluster.x-k8s.io/v1alpha1` (Cluster API
 * api/runtime/hooks/v1alpha1, api/runtime/catalog): every hook's name, whether its response is a
 * retry response, and the path a handler for it is served on. Client and server both read it.
 */

export const HOOKS_GROUP = 'hooks.runtime.cluster.x-k8s.io';
export const HOOKS_VERSION = 'v1alpha1';
export const HOOKS_API_VERSION = `${HOOKS_GROUP}/${HOOKS_VERSION}`;

/** The lifecycle hooks (clusterclass-runtime-sdk.md §3), in the order a cluster meets them. */
export const LIFECYCLE_HOOKS = [
  'BeforeClusterCreate',
  'AfterControlPlaneInitialized',
  'BeforeClusterUpgrade',
  'BeforeControlPlaneUpgrade',
  'AfterControlPlaneUpgrade',
  'BeforeWorkersUpgrade',
  'AfterWorkersUpgrade',
  'AfterClusterUpgrade',
  'BeforeClusterDelete',
] as const;
export type LifecycleHook = (typeof LIFECYCLE_HOOKS)[number];

/** Topology mutation hooks: called per named handler from a ClusterClass's external patches. */
export const TOPOLOGY_MUTATION_HOOKS = ['GeneratePatches', 'ValidateTopology', 'DiscoverVariables'] as const;
export type TopologyMutationHook = (typeof TOPOLOGY_MUTATION_HOOKS)[number];

/** Hooks capless has wire types for (Discovery included). */
export type HookName = 'Discovery' | LifecycleHook | TopologyMutationHook;

/**
 * Every hook Cluster API v1.14's catalog registers. A discovery response may name any of them
 * (a handler for a hook capless does not call yet is registered, never called); a hook outside
 * this list fails discovery as it does in Cluster API ("is not in the Runtime SDK catalog").
 */
export const CATALOG_HOOKS: readonly string[] = [
  'Discovery',
  ...LIFECYCLE_HOOKS,
  ...TOPOLOGY_MUTATION_HOOKS,
  'GenerateUpgradePlan',
  'CanUpdateMachine',
  'CanUpdateMachineSet',
  'UpdateMachine',
];

/** Hooks whose response carries `retryAfterSeconds` (a non-zero value blocks). */
const RETRY_HOOKS: ReadonlySet<HookName> = new Set<HookName>([
  'BeforeClusterCreate',
  'BeforeClusterUpgrade',
  'BeforeControlPlaneUpgrade',
  'AfterControlPlaneUpgrade',
  'BeforeWorkersUpgrade',
  'AfterWorkersUpgrade',
  'AfterClusterUpgrade',
  'BeforeClusterDelete',
]);

export function isRetryHook(hook: HookName): boolean {
  return RETRY_HOOKS.has(hook);
}

export function isLifecycleHook(value: string): value is LifecycleHook {
  return (LIFECYCLE_HOOKS as readonly string[]).includes(value);
}

export function isCatalogHook(apiVersion: string, hook: string): boolean {
  return apiVersion === HOOKS_API_VERSION && CATALOG_HOOKS.includes(hook);
}

/**
 * The path of a handler (runtimecatalog.GVHToPath): `/hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook
 * lowercased>/<handler>`; Discovery has no handler segment.
 */
export function hookPath(hook: HookName, handlerName?: string): string {
  const base = `/${HOOKS_GROUP}/${HOOKS_VERSION}/${hook.toLowerCase()}`;
  return hook === 'Discovery' || handlerName === undefined ? base : `${base}/${handlerName}`;
}

/** The hook a lower-cased path segment names (`beforeclusterupgrade` → BeforeClusterUpgrade). */
export function hookFromPathSegment(segment: string): HookName | undefined {
  const all: readonly HookName[] = ['Discovery', ...LIFECYCLE_HOOKS, ...TOPOLOGY_MUTATION_HOOKS];
  return all.find((hook) => hook.toLowerCase() === segment);
}

/** Request and response kinds: `<Hook>Request`, `<Hook>Response`. */
export function requestKind(hook: HookName): string {
  return `${hook}Request`;
}

export function responseKind(hook: HookName): string {
  return `${hook}Response`;
}
