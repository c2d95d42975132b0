/**
 * The Runtime SDK behind the topology reconciler's hook seam (topology/cluster/lifecycle-hooks.ts):
 * each LifecycleHookRequest becomes a HookClient call with Cluster API's request body; a
 * `Blocked` answer is returned as its retryAfterSeconds, a `Failure` (an answer of Failure, or a
 * call error under failurePolicy Fail) is thrown as a LifecycleHookFailed, so the reconciler
 * writes TopologyReconciled=False (ReconcileFailed) and keeps every pending mark.
 */

import type { LifecycleCallBody, LifecycleHook as WireHook } from '../../../../shared/contracts/hooks/index.js';
import type { HookClient, HookResult } from '../../../../shared/ports/runtime-extensions.js';
import { type LifecycleHookAnswer, type LifecycleHookCaller, LifecycleHookFailed, type LifecycleHookRequest } from '../../topology/cluster/lifecycle-hooks.js';

function call<H extends WireHook>(client: HookClient, hook: H, request: LifecycleHookRequest, body: LifecycleCallBody<H>): Promise<HookResult> {
  return client.call(hook, request.cluster, body);
}

function send(client: HookClient, request: LifecycleHookRequest): Promise<HookResult> {
  const from = request.fromKubernetesVersion ?? '';
  const to = request.toKubernetesVersion ?? '';
  const version = request.kubernetesVersion ?? '';
  switch (request.hook) {
    case 'BeforeClusterCreate':
    case 'AfterControlPlaneInitialized':
    case 'BeforeClusterDelete':
      return call(client, request.hook, request, {});
    case 'BeforeClusterUpgrade':
      // One-step plan: the control plane and then the workers go straight to the new version.
      return call(client, 'BeforeClusterUpgrade', request, { fromKubernetesVersion: from, toKubernetesVersion: to, controlPlaneUpgrades: [{ version: to }], workersUpgrades: [{ version: to }] });
    case 'AfterControlPlaneUpgrade':
      return call(client, 'AfterControlPlaneUpgrade', request, { kubernetesVersion: version, controlPlaneUpgrades: [], workersUpgrades: [{ version }] });
    case 'AfterClusterUpgrade':
      return call(client, 'AfterClusterUpgrade', request, { kubernetesVersion: version });
  }
}

export class HookClientLifecycleCaller implements LifecycleHookCaller {
  constructor(private readonly client: HookClient) {}

  async call(request: LifecycleHookRequest): Promise<LifecycleHookAnswer> {
    const result = await send(this.client, request);
    switch (result.status) {
      case 'Success':
        return { retryAfterSeconds: 0, ...(result.message ? { message: result.message } : {}) };
      case 'Blocked':
        return { retryAfterSeconds: Math.max(1, result.retryAfterSeconds ?? 1), message: result.message };
      case 'Failure':
        throw new LifecycleHookFailed(request.hook, result.message);
    }
  }
}
