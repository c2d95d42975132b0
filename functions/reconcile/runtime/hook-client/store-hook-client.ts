/**
 * The HookClient over the store's ExtensionConfigs and an ExtensionTransport (the contract is in
 * shared/ports/runtime-extensions.ts). Handlers are called one by one; the first failure stops.
 */

import type { LifecycleCallBody, LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { ExtensionTransport, HookClient, HookResult } from '../../../../shared/ports/runtime-extensions.js';
import { registrationsFor } from '../registrations.js';
import { callHandler } from './call-handler.js';
import { hookCluster } from './hook-cluster.js';
import { EMPTY_FOLD, finishFold, foldOutcome } from './outcome.js';

export class StoreHookClient implements HookClient {
  constructor(
    private readonly store: ObjectStore,
    private readonly transport: ExtensionTransport,
  ) {}

  async call<H extends LifecycleHook>(hook: H, cluster: KubeObject, body: LifecycleCallBody<H>): Promise<HookResult> {
    const registrations = await registrationsFor(this.store, hook, cluster.metadata.namespace ?? 'default');
    const request: Record<string, unknown> = { ...body, cluster: hookCluster(cluster) };
    let state = EMPTY_FOLD;
    for (const registration of registrations) {
      const outcome = await callHandler(this.transport, registration, hook, request);
      const next = foldOutcome(state, { name: registration.name, failurePolicy: registration.failurePolicy, outcome });
      if ('result' in next) return next.result;
      state = next.state;
    }
    return finishFold(state);
  }
}
