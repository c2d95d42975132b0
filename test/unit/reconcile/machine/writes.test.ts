/**
 * What one Machine reconcile writes: what its phases copy onto the Machine goes out with the
 * status in one write, and a finished deletion that drops the last finalizer writes no status first.
 */

import { describe, expect, it } from 'vitest';
import { conditionsOf } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME, type ObjectKey, type StoredObject } from '../../../../shared/contracts/object.js';
import { ConflictError } from '../../../../shared/errors/index.js';
import type { ObjectChange, ObjectStore } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { MACHINE_FINALIZER, machineReconciler } from '../../../../functions/reconcile/core/machine/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { testContext } from '../../../support/reconcile-context.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const BOOT = 'bootstrap.cluster.x-k8s.io';
const KEY: ObjectKey = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'm1' };

function machine(spec: Record<string, unknown>, finalizers?: string[]): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'default', ...(finalizers ? { finalizers } : {}) },
    spec: { clusterName: 'c1', ...spec },
  };
}

const refs = {
  bootstrap: { configRef: { apiGroup: BOOT, kind: 'KubeadmConfig', name: 'm1' } },
  infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine', name: 'm1' },
};

async function withStatus(store: ObjectStore, obj: KubeObject, status: Record<string, unknown> | undefined): Promise<void> {
  const created = await store.create(obj);
  if (status) await store.updateStatus({ ...created, status });
}

/** The Machine's changes while `run` runs. */
async function machineChanges(store: MemoryObjectStore, run: () => Promise<unknown>): Promise<ObjectChange[]> {
  const changes: ObjectChange[] = [];
  const stop = store.onChange((c) => {
    if ((c.newObject ?? c.oldObject)?.kind === 'Machine') changes.push(c);
  });
  try {
    await run();
  } finally {
    stop();
  }
  return changes;
}

function reasonOf(object: StoredObject | undefined, type: string): string | undefined {
  return conditionsOf(object?.status).find((c) => c.type === type)?.reason;
}

describe('a Machine reconcile writes what its phases copied with the status, once', () => {
  const secretReady = { initialization: { dataSecretCreated: true }, dataSecretName: 'm1-data' };
  const provisioned = { initialization: { provisioned: true } };

  it.each([
    { what: 'the data secret name', config: secretReady, infra: undefined, phase: 'Provisioning', spec: { dataSecretName: 'm1-data', providerID: undefined }, generation: 2 },
    { what: 'the data secret name and providerID', config: secretReady, infra: provisioned, phase: 'Provisioned', spec: { dataSecretName: 'm1-data', providerID: 'in-memory://m1' }, generation: 2 },
    { what: 'only the cluster-name label (neither is ready)', config: undefined, infra: undefined, phase: 'Pending', spec: { dataSecretName: undefined, providerID: undefined }, generation: 1 },
  ])('copies $what: finalizer, then one write of spec and status', async ({ config, infra, phase, spec, generation }) => {
    const store = new MemoryObjectStore();
    const ctx = testContext({ store });
    await withStatus(store, { apiVersion: `${BOOT}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'm1' }, spec: {} }, config);
    await withStatus(store, { apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryMachine', metadata: { name: 'm1' }, spec: { providerID: 'in-memory://m1' } }, infra);
    await store.create(machine(refs));

    const changes = await machineChanges(store, () => runReconcile(machineReconciler, ctx, KEY));

    expect(changes.map((c) => c.type)).toEqual(['MODIFY', 'MODIFY']);
    expect(changes[0]?.newObject?.metadata.finalizers).toEqual([MACHINE_FINALIZER]);
    const written = changes[1]?.newObject;
    expect(stringAt(written, 'spec', 'bootstrap', 'dataSecretName')).toBe(spec.dataSecretName);
    expect(stringAt(written, 'spec', 'providerID')).toBe(spec.providerID);
    expect(written?.metadata.labels).toEqual({ [LABEL_CLUSTER_NAME]: 'c1' });
    expect(written?.status?.phase).toBe(phase);
    expect(written?.metadata.generation).toBe(generation);
    expect(written?.status?.observedGeneration).toBe(generation);
    expect(await store.get(KEY)).toEqual(written);
  });

  type Racer = (store: ObjectStore, current: StoredObject) => Promise<unknown>;
  const labels: Racer = (store, current) => store.update({ ...current, metadata: { ...current.metadata, labels: { other: 'writer' } } });
  const condition: Racer = (store, current) =>
    store.updateStatus({ ...current, status: { ...current.status, conditions: [...conditionsOf(current.status), { type: 'HealthCheckSucceeded', status: 'False', reason: 'NodeNotFound', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });

  it.each([
    { what: 'its labels: the conflict is thrown and the Machine stays as the other writer left it', race: labels, lands: false },
    { what: "only its status: the changes go onto the fresh copy, keeping the other writer's condition", race: condition, lands: true },
  ])('another writer changes $what', async ({ race, lands }) => {
    const inner = new MemoryObjectStore();
    let raced = false;
    const racing: ObjectStore = Object.assign(Object.create(inner), {
      // Another writer lands between this reconcile's read and its write, once.
      async updateWithStatus(obj: KubeObject): Promise<StoredObject> {
        const current = await inner.get(KEY);
        if (current && !raced) await race(inner, current);
        raced = true;
        return inner.updateWithStatus(obj);
      },
    });
    await withStatus(inner, { apiVersion: `${BOOT}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'm1' }, spec: {} }, secretReady);
    await inner.create(machine({ bootstrap: refs.bootstrap }));

    const run = runReconcile(machineReconciler, testContext({ store: racing }), KEY);

    if (!lands) {
      await expect(run).rejects.toBeInstanceOf(ConflictError);
      const after = await inner.get(KEY);
      expect(after?.metadata.labels).toEqual({ other: 'writer' });
      expect(stringAt(after, 'spec', 'bootstrap', 'dataSecretName')).toBeUndefined();
      await runReconcile(machineReconciler, testContext({ store: inner }), KEY);
    } else {
      await run;
      expect(reasonOf(await inner.get(KEY), 'HealthCheckSucceeded')).toBe('NodeNotFound');
    }
    const after = await inner.get(KEY);
    expect(stringAt(after, 'spec', 'bootstrap', 'dataSecretName')).toBe('m1-data');
    expect(after?.status?.observedGeneration).toBe(after?.metadata.generation);
  });
});

describe('a finished Machine deletion', () => {
  it.each([
    { what: 'its finalizer is the last: removed, no status written first', others: [], changes: ['REMOVE'], kept: undefined },
    { what: 'another finalizer keeps it: finalizer dropped, then the status', others: ['example.com/keep'], changes: ['MODIFY', 'MODIFY'], kept: ['example.com/keep'] },
  ])('$what', async ({ others, changes, kept }) => {
    const store = new MemoryObjectStore();
    const ctx = testContext({ store });
    await store.create(machine({ bootstrap: { dataSecretName: 's' } }, others.length > 0 ? others : undefined));
    await runReconcile(machineReconciler, ctx, KEY);
    await store.delete(KEY);

    const seen = await machineChanges(store, () => runReconcile(machineReconciler, ctx, KEY));

    expect(seen.map((c) => c.type)).toEqual(changes);
    const after = await store.get(KEY);
    expect(after?.metadata.finalizers).toEqual(kept);
    if (kept) expect(reasonOf(after, 'Deleting')).toBe('DeletionCompleted');
  });
});
