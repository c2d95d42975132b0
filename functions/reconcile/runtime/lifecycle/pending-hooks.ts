/**
 * Lifecycle hook tracking on the Cluster (Cluster API internal/hooks/tracking.go): the
 * `runtime.cluster.x-k8s.io/pending-hooks` annotation is a sorted, comma-separated list of hooks
 * still to be called; `runtime.cluster.x-k8s.io/ok-to-delete` marks a Cluster whose
 * BeforeClusterDelete passed. Pure: each function returns new annotations.
 */

import type { LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import { ANNOTATION_OK_TO_DELETE, ANNOTATION_PENDING_HOOKS } from '../../../../shared/contracts/object.js';

export type Annotations = Readonly<Record<string, string>>;

export function pendingHooks(annotations: Annotations | undefined): string[] {
  const value = annotations?.[ANNOTATION_PENDING_HOOKS] ?? '';
  return value
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
}

export function isPending(annotations: Annotations | undefined, hook: LifecycleHook): boolean {
  return pendingHooks(annotations).includes(hook);
}

function withPending(annotations: Annotations | undefined, hooks: readonly string[]): Record<string, string> {
  const { [ANNOTATION_PENDING_HOOKS]: _old, ...rest } = annotations ?? {};
  const sorted = [...new Set(hooks)].sort();
  return sorted.length > 0 ? { ...rest, [ANNOTATION_PENDING_HOOKS]: sorted.join(',') } : rest;
}

export function markPending(annotations: Annotations | undefined, ...hooks: LifecycleHook[]): Record<string, string> {
  return withPending(annotations, [...pendingHooks(annotations), ...hooks]);
}

export function markDone(annotations: Annotations | undefined, ...hooks: LifecycleHook[]): Record<string, string> {
  return withPending(
    annotations,
    pendingHooks(annotations).filter((h) => !(hooks as readonly string[]).includes(h)),
  );
}

export function isOkToDelete(annotations: Annotations | undefined): boolean {
  return annotations?.[ANNOTATION_OK_TO_DELETE] !== undefined;
}

export function markOkToDelete(annotations: Annotations | undefined): Record<string, string> {
  return { ...(annotations ?? {}), [ANNOTATION_OK_TO_DELETE]: '' };
}
