/** The Runtime SDK ports every deployment wires into ReconcileContext.providers (Lambda and `capless up` alike). */

import { HttpsExtensionTransport } from '../../../shared/adapters/https/https-extension-transport.js';
import { type Clock, systemClock } from '../../../shared/ports/clock.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import { EXTENSION_CALLER_PORT, EXTENSION_TRANSPORT_PORT, type ExtensionTransport, HOOK_CLIENT_PORT } from '../../../shared/ports/runtime-extensions.js';
import { LIFECYCLE_HOOKS_PORT } from '../topology/cluster/lifecycle-hooks.js';
import { StoreHookClient } from './hook-client/store-hook-client.js';
import { HookClientLifecycleCaller } from './lifecycle/topology-hook-caller.js';

/** Production wiring: HTTPS transport, the topology reconciler's lifecycle hooks over the hook client, blocking answers cached until their retry time on `clock`. */
export function runtimeExtensionPorts(store: ObjectStore, transport: ExtensionTransport = new HttpsExtensionTransport(), clock: Clock = systemClock): Record<string, unknown> {
  const client = new StoreHookClient(store, transport, { cacheBlockedAnswers: clock });
  return { [EXTENSION_TRANSPORT_PORT]: transport, [HOOK_CLIENT_PORT]: client, [EXTENSION_CALLER_PORT]: client, [LIFECYCLE_HOOKS_PORT]: new HookClientLifecycleCaller(client) };
}
