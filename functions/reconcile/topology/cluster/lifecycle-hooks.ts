/**
 * The seam where the Runtime SDK plugs in (clusterclass-runtime-sdk.md §3, "Lifecycle hooks"):
 * the topology reconciler asks this port at the points Cluster API calls its lifecycle hooks and
 * obeys the answer. Without extensions (the default) every hook passes at once; the Runtime SDK
 * issue provides a caller that dispatches to registered ExtensionConfig handlers and returns their
 * aggregated answer (lowest non-zero retryAfterSeconds, messages joined).
 *
 * Reconcilers find the caller on `ctx.providers[LIFECYCLE_HOOKS_PORT]`.
 */

import type { StoredObject } from '../../../../shared/contracts/object.js';
import { TransientError } from '../../../../shared/errors/index.js';
import type { LifecycleHook } from '../../../../shared/contracts/hooks/index.js';

export const LIFECYCLE_HOOKS_PORT = 'topologyLifecycleHooks';

/** Every lifecycle hook of the Runtime SDK catalog (shared/contracts/hooks/catalog.ts). */
export type { LifecycleHook };

export interface LifecycleHookRequest {
  hook: LifecycleHook;
  cluster: StoredObject;
  /** Before/AfterUpgrade hooks. */
  fromKubernetesVersion?: string;
  toKubernetesVersion?: string;
  kubernetesVersion?: string;
  /** The upgrade plan still ahead (`[0]` = next step), for the upgrade hooks except AfterClusterUpgrade. */
  controlPlaneUpgrades?: readonly string[];
  workersUpgrades?: readonly string[];
}

export interface LifecycleHookAnswer {
  /** > 0: the hook blocks; ask again after this many seconds. */
  retryAfterSeconds: number;
  message?: string;
}

/** A hook answered Failure (or could not be called under failurePolicy Fail): the reconcile fails and is retried. */
export class LifecycleHookFailed extends TransientError {
  constructor(
    readonly hook: LifecycleHook,
    message: string,
  ) {
    super(`error calling the ${hook} hook: ${message}`);
    this.name = 'LifecycleHookFailed';
  }
}

export interface LifecycleHookCaller {
  /** Throws LifecycleHookFailed for a `Failure` answer or a call error under failurePolicy Fail (a reconcile error, retried). */
  call(request: LifecycleHookRequest): Promise<LifecycleHookAnswer>;
}

/** No runtime extensions registered: every hook passes (Cluster API without handlers). */
export const noLifecycleExtensions: LifecycleHookCaller = {
  call: async () => ({ retryAfterSeconds: 0 }),
};

function isCaller(value: unknown): value is LifecycleHookCaller {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'call') === 'function';
}

export function lifecycleHooksOf(providers: Readonly<Record<string, unknown>> | undefined): LifecycleHookCaller {
  const caller = providers?.[LIFECYCLE_HOOKS_PORT];
  return isCaller(caller) ? caller : noLifecycleExtensions;
}
