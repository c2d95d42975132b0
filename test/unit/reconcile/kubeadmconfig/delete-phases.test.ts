import { describe, expect, it } from 'vitest';
import { kubeadmConfigReconciler, KUBEADM_CONFIG_FINALIZER } from '../../../../functions/reconcile/kubeadm/bootstrap/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { keyOf, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { NS, newEnv } from './fixtures.js';

const secretKey = (name: string) => ({ group: '', kind: 'Secret', namespace: NS, name });

describe('KubeadmConfig deletion', () => {
  it('deletes the Secrets the config controls itself, not through garbage collection, and keeps others', async () => {
    const { store, ctx } = newEnv();
    const config = await store.create({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfig',
      metadata: { name: 'm1', namespace: NS, finalizers: [KUBEADM_CONFIG_FINALIZER, 'example.com/hold'] },
      spec: {},
    });
    const owned = (name: string, owner: StoredObject | undefined) =>
      store.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: NS, ...(owner ? { ownerReferences: [ownerReferenceTo(owner)] } : {}) },
        data: { value: 'eA==' },
      });
    await owned('m1', config);
    await owned('m1-token', config);
    await owned('m1-unrelated', undefined);

    await store.delete(keyOf(config));
    await runReconcile(kubeadmConfigReconciler, ctx, keyOf(config));

    // Another finalizer still holds the config, so no garbage collection has run yet.
    const remaining = await store.get(keyOf(config));
    expect(remaining?.metadata.finalizers).toEqual(['example.com/hold']);
    expect(await store.get(secretKey('m1'))).toBeUndefined();
    expect(await store.get(secretKey('m1-token'))).toBeUndefined();
    expect(await store.get(secretKey('m1-unrelated'))).toBeDefined();
  });

  it('adds its finalizer on the first reconcile', async () => {
    const { store, ctx } = newEnv();
    const config = await store.create({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfig',
      metadata: { name: 'm2', namespace: NS },
      spec: {},
    });
    await runReconcile(kubeadmConfigReconciler, ctx, keyOf(config));
    expect((await store.get(keyOf(config)))?.metadata.finalizers).toContain(KUBEADM_CONFIG_FINALIZER);
  });
});
