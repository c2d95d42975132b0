/** The Cluster's `runtime.cluster.x-k8s.io/pending-hooks` annotation (sorted, comma-separated), read and changed purely. */

import type { KubeObject } from '../../../../shared/contracts/object.js';
import { ANNOTATION_PENDING_HOOKS } from '../../../../shared/contracts/topology/well-known.js';
import type { LifecycleHook } from './lifecycle-hooks.js';

export function pendingHooks(object: KubeObject): Set<string> {
  const value = object.metadata.annotations?.[ANNOTATION_PENDING_HOOKS] ?? '';
  return new Set(value.split(',').filter((h) => h !== ''));
}

/** The annotations with `hook` marked (or cleared); the same object when nothing changes. */
export function withPendingHook(annotations: Record<string, string> | undefined, hook: LifecycleHook, pending: boolean): Record<string, string> | undefined {
  const hooks = new Set((annotations?.[ANNOTATION_PENDING_HOOKS] ?? '').split(',').filter((h) => h !== ''));
  if (hooks.has(hook) === pending) return annotations;
  if (pending) hooks.add(hook);
  else hooks.delete(hook);
  const { [ANNOTATION_PENDING_HOOKS]: _old, ...rest } = annotations ?? {};
  return hooks.size === 0 ? rest : { ...rest, [ANNOTATION_PENDING_HOOKS]: [...hooks].sort().join(',') };
}
