/**
 * The HookClient over the store's ExtensionConfigs and an ExtensionTransport (the contract is in
 * shared/ports/runtime-extensions.ts). Handlers are called one by one; the first failure stops.
 */

import type { LifecycleCallBody, LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { ExtensionCaller, ExtensionTransport, HookClient, HookResult, NamedCallResult, NamedHook } from '../../../../shared/ports/runtime-extensions.js';
import { registrationsFor } from '../registrations.js';
import type { Clock } from '../../../../shared/ports/clock.js';
import { BlockedAnswerCache } from './blocked-answer-cache.js';
import { callHandler } from './call-handler.js';
import { hookCluster } from './hook-cluster.js';
import { EMPTY_FOLD, finishFold, foldOutcome } from './outcome.js';

export interface StoreHookClientOptions {
  /** Remember blocking answers until their retry time (Cluster API does; the production wiring turns it on). */
  cacheBlockedAnswers?: Clock;
}

export class StoreHookClient implements HookClient, ExtensionCaller {
  private readonly cache: BlockedAnswerCache | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly transport: ExtensionTransport,
    options: StoreHookClientOptions = {},
  ) {
    this.cache = options.cacheBlockedAnswers ? new BlockedAnswerCache(options.cacheBlockedAnswers) : undefined;
  }

  async call<H extends LifecycleHook>(hook: H, cluster: KubeObject, body: LifecycleCallBody<H>): Promise<HookResult> {
    const registrations = await registrationsFor(this.store, hook, cluster.metadata.namespace ?? 'default');
    const request: Record<string, unknown> = { ...body, cluster: hookCluster(cluster) };
    let state = EMPTY_FOLD;
    for (const registration of registrations) {
      const key = BlockedAnswerCache.key(registration, hook, cluster.metadata, request);
      const outcome = this.cache?.get(key) ?? (await callHandler(this.transport, registration, hook, request));
      this.cache?.remember(key, outcome);
      const next = foldOutcome(state, { name: registration.name, failurePolicy: registration.failurePolicy, outcome });
      if ('result' in next) return next.result;
      state = next.state;
    }
    return finishFold(state);
  }

  async callExtension(registeredName: string, hook: NamedHook, namespace: string, body: Record<string, unknown>): Promise<NamedCallResult> {
    const registration = (await registrationsFor(this.store, hook, namespace)).find((r) => r.name === registeredName);
    if (!registration) {
      return { status: 'Failure', message: `no handler "${registeredName}" for ${hook} is registered for namespace ${namespace}` };
    }
    const outcome = await callHandler(this.transport, registration, hook, body);
    switch (outcome.kind) {
      case 'success':
        return { status: 'Success', response: outcome.response ?? {} };
      case 'callError':
        return registration.failurePolicy === 'Ignore'
          ? { status: 'Success', response: { status: 'Success' } }
          : { status: 'Failure', message: `failed to call extension handler "${registeredName}": ${outcome.message}` };
      case 'failure':
        return { status: 'Failure', message: `extension handler "${registeredName}" answered Failure${outcome.message ? `: ${outcome.message}` : ''}` };
      case 'invalid':
        return { status: 'Failure', message: `extension handler "${registeredName}" sent an invalid response: ${outcome.message}` };
    }
  }
}
