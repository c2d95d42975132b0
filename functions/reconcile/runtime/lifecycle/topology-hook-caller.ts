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

function steps(versions: readonly string[] | undefined): { version: string }[] {
  return (versions ?? []).map((version) => ({ version }));
}

function send(client: HookClient, request: LifecycleHookRequest): Promise<HookResult> {
  const versions = { fromKubernetesVersion: request.fromKubernetesVersion ?? '', toKubernetesVersion: request.toKubernetesVersion ?? '' };
  const kubernetesVersion = request.kubernetesVersion ?? '';
  const plan = { controlPlaneUpgrades: steps(request.controlPlaneUpgrades), workersUpgrades: steps(request.workersUpgrades) };
  switch (request.hook) {
    case 'BeforeClusterCreate':
    case 'AfterControlPlaneInitialized':
    case 'BeforeClusterDelete':
      return call(client, request.hook, request, {});
    case 'BeforeClusterUpgrade':
    case 'BeforeControlPlaneUpgrade':
    case 'BeforeWorkersUpgrade':
      return call(client, request.hook, request, { ...versions, ...plan });
    case 'AfterControlPlaneUpgrade':
    case 'AfterWorkersUpgrade':
      return call(client, request.hook, request, { kubernetesVersion, ...plan });
    case 'AfterClusterUpgrade':
      return call(client, 'AfterClusterUpgrade', request, { kubernetesVersion });
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
