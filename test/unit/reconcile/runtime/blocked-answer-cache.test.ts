/** Blocking answers are remembered until their retry time, per handler, ExtensionConfig version, Cluster and versions. */

import { beforeEach, describe, expect, it } from 'vitest';
import { StoreHookClient } from '../../../../functions/reconcile/runtime/hook-client/store-hook-client.js';
import type { KubeObject, StoredObject } from '../../../../shared/contracts/object.js';
import type { ExtensionPost, ExtensionReply, ExtensionTransport } from '../../../../shared/ports/runtime-extensions.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { FakeClock } from '../../../support/fake-clock.js';

class CountingTransport implements ExtensionTransport {
  calls = 0;
  answer = { status: 'Success', retryAfterSeconds: 30 };
  async post(_call: ExtensionPost): Promise<ExtensionReply> {
    this.calls++;
    return { status: 200, body: JSON.stringify(this.answer) };
  }
}

const cluster = (name = 'c1'): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name, namespace: 'default' } });
const upgrade = (to = 'v1.34.0') => ({ fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: to });

let clock: FakeClock;
let store: MemoryObjectStore;
let transport: CountingTransport;
let client: StoreHookClient;
let config: StoredObject;

beforeEach(async () => {
  clock = new FakeClock();
  store = new MemoryObjectStore({ clock });
  transport = new CountingTransport();
  client = new StoreHookClient(store, transport, { cacheBlockedAnswers: clock });
  const created = await store.create({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'ext', namespace: 'default' }, spec: { clientConfig: { url: 'https://127.0.0.1:1/ext' } } });
  config = await store.updateStatus({ ...created, status: { handlers: [{ name: 'gate', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterUpgrade' } }] } });
});

describe('the blocked-answer cache', () => {
  it('does not ask again before the retry time, and says how long is left', async () => {
    expect(await client.call('BeforeClusterUpgrade', cluster(), upgrade())).toMatchObject({ status: 'Blocked', retryAfterSeconds: 30 });
    clock.advanceSeconds(20);
    transport.answer = { status: 'Success', retryAfterSeconds: 0 };
    expect(await client.call('BeforeClusterUpgrade', cluster(), upgrade())).toMatchObject({ status: 'Blocked', retryAfterSeconds: 10 });
    expect(transport.calls).toBe(1);
    clock.advanceSeconds(10);
    expect(await client.call('BeforeClusterUpgrade', cluster(), upgrade())).toMatchObject({ status: 'Success' });
    expect(transport.calls).toBe(2);
  });

  it.each<[string, () => Promise<unknown>]>([
    ['another Cluster', () => client.call('BeforeClusterUpgrade', cluster('c2'), upgrade())],
    ['another target version', () => client.call('BeforeClusterUpgrade', cluster(), upgrade('v1.35.0'))],
    ['a changed ExtensionConfig', async () => {
      await store.update({ ...config, spec: { clientConfig: { url: 'https://127.0.0.1:1/ext' }, settings: { a: 'b' } } });
      return client.call('BeforeClusterUpgrade', cluster(), upgrade());
    }],
  ])('asks again for %s', async (_name, again) => {
    await client.call('BeforeClusterUpgrade', cluster(), upgrade());
    await again();
    expect(transport.calls).toBe(2);
  });

  it('never caches a passing answer', async () => {
    transport.answer = { status: 'Success', retryAfterSeconds: 0 };
    await client.call('BeforeClusterUpgrade', cluster(), upgrade());
    await client.call('BeforeClusterUpgrade', cluster(), upgrade());
    expect(transport.calls).toBe(2);
  });
});
