import { describe, expect, it } from 'vitest';
import { devBackendOf, devStartupSeconds } from '../../../../functions/reconcile/infrastructure/dev/backend.js';
import { inMemoryBackendPhase, createDevMachineScope, devMachineReconciler } from '../../../../functions/reconcile/infrastructure/dev/machine-reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { inMemoryProviderID } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';
import { FakeClock } from '../../../support/fake-clock.js';

function devMachine(backend: Record<string, unknown>, labels: Record<string, string> = {}, name = 'm1'): StoredObject {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevMachine',
    metadata: { name, namespace: 'ns', uid: name, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels },
    spec: { backend },
  };
}

const stage = (startupDuration: string, startupJitter?: string) => ({ provisioning: { startupDuration, ...(startupJitter ? { startupJitter } : {}) } });

describe('DevMachine in-memory backend start-up time', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>, number]>([
    ['no durations: at once', { inMemory: {} }, {}, 0],
    ['a worker waits for vm and node', { inMemory: { vm: stage('10s'), node: stage('2s'), apiServer: stage('2s'), etcd: stage('2s') } }, {}, 12],
    ['a control-plane machine also waits for API server and etcd', { inMemory: { vm: stage('10s'), node: stage('2s'), apiServer: stage('2s'), etcd: stage('2s') } }, { 'cluster.x-k8s.io/control-plane': '' }, 16],
    ['minutes are understood', { inMemory: { vm: stage('1m30s') } }, {}, 90],
  ])('%s', (_name, backend, labels, seconds) => {
    expect(devStartupSeconds(devMachine(backend, labels))).toBe(seconds);
  });

  it('jitter stretches each stage by up to its fraction, the same on every run', () => {
    const backend = { inMemory: { vm: stage('10s', '0.2'), node: stage('2s', '0.2') } };
    const seconds = ['a', 'b', 'c', 'd', 'e'].map((name) => devStartupSeconds(devMachine(backend, {}, name)));
    for (const s of seconds) {
      expect(s).toBeGreaterThanOrEqual(12);
      expect(s).toBeLessThanOrEqual(15);
    }
    expect(seconds).toEqual(['a', 'b', 'c', 'd', 'e'].map((name) => devStartupSeconds(devMachine(backend, {}, name))));
  });
});

describe('DevMachine backends', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ inMemory: {} }, 'inMemory'],
    [{ docker: {} }, 'docker'],
    [{}, 'none'],
  ])('%j is %s', (backend, expected) => {
    expect(devBackendOf(devMachine(backend))).toBe(expected);
  });

  it('a docker backend stops with Ready=False ProviderNotInstalled; in-memory goes on', () => {
    const docker = createDevMachineScope(testContext(), devMachine({ docker: {} }));
    expect(inMemoryBackendPhase(docker)).toEqual({ stop: true });
    expect(docker.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'False', reason: 'ProviderNotInstalled' })]);
    const inMemory = createDevMachineScope(testContext(), devMachine({ inMemory: {} }));
    expect(inMemoryBackendPhase(inMemory)).toEqual({});
    expect(inMemory.conditions).toEqual([]);
  });
});

describe('DevMachine on the in-memory backend', () => {
  it('comes up with its providerID and provisioned status in one write (ADR 0140)', async () => {
    const clock = new FakeClock();
    const store = new MemoryObjectStore({ clock });
    const ctx = testContext({ store, clock });
    const machine = await store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Machine',
      metadata: { name: 'm1', namespace: 'ns' },
      spec: { clusterName: 'c1', bootstrap: { dataSecretName: 's' } },
    });
    const { uid: _u, resourceVersion: _r, generation: _g, creationTimestamp: _c, ...metadata } = devMachine({ inMemory: {} }).metadata;
    await store.create({ ...devMachine({ inMemory: {} }), metadata: { ...metadata, ownerReferences: [ownerReferenceTo(machine, true)] } });
    const changes: ObjectChange[] = [];
    store.onChange((c) => {
      if (c.newObject?.kind === 'DevMachine') changes.push(c);
    });

    await runReconcile(devMachineReconciler, ctx, { group: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachine', namespace: 'ns', name: 'm1' });

    expect(changes).toHaveLength(1);
    expect(changes[0]?.newObject?.spec?.providerID).toBe(inMemoryProviderID('ns', 'm1', 'DevMachine'));
    expect(changes[0]?.newObject?.status).toMatchObject({ initialization: { provisioned: true } });
  });
});
