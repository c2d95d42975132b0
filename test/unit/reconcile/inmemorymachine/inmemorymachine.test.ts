import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { inMemoryMachineReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { ANNOTATION_SIMULATE_NODE_UNHEALTHY, secondsUntilReady, simulatedInternalIP } from '../../../../functions/reconcile/infrastructure/inmemory/machine/simulation.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: 'default', name: 'm1' };

function machine(dataSecretName?: string): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1' },
    spec: { clusterName: 'c1', version: 'v1.31.0', failureDomain: 'fd-b', bootstrap: dataSecretName ? { dataSecretName } : {} },
  };
}

async function setup(spec: Record<string, unknown>, opts: { owned?: boolean; dataSecretName?: string } = {}) {
  const ctx = testContext();
  const m = await ctx.store.create(machine(opts.dataSecretName));
  await ctx.store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryMachine',
    metadata: { name: 'm1', ...(opts.owned === false ? {} : { ownerReferences: [ownerReferenceTo(m, true)] }) },
    spec,
  });
  return ctx;
}

const ready = (obj: KubeObject | undefined) =>
  (Array.isArray(obj?.status?.conditions) ? obj.status.conditions : []).find((c: { type?: string }) => c.type === 'Ready');

describe('secondsUntilReady', () => {
  it.each<[Record<string, unknown>, number, number]>([
    [{}, 0, 2],
    [{}, 1.5, 1],
    [{}, 5, 0],
    [{ startupSeconds: 0 }, 0, 0],
    [{ startupSeconds: 10 }, 3, 7],
    [{ startupSeconds: -1 }, 0, 2],
  ])('spec %j, %ss after creation → %i', (spec, elapsed, expected) => {
    const created = '2026-01-01T00:00:00Z';
    const obj = {
      apiVersion: 'x/v1',
      kind: 'InMemoryMachine',
      metadata: { name: 'm', namespace: 'default', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: created },
      spec,
    };
    expect(secondsUntilReady(obj, new Date(new Date(created).getTime() + elapsed * 1000))).toBe(expected);
  });

  it('simulated IPs are deterministic private addresses', () => {
    expect(simulatedInternalIP('default', 'm1')).toBe(simulatedInternalIP('default', 'm1'));
    expect(simulatedInternalIP('default', 'm1')).toMatch(/^10\.\d+\.\d+\.\d+$/);
  });
});

describe('inMemoryMachineReconciler', () => {
  it.each<[string, Record<string, unknown>, { owned?: boolean; dataSecretName?: string }, string, number | undefined]>([
    ['no owning Machine', {}, { owned: false, dataSecretName: 's' }, 'WaitingForMachine', undefined],
    ['no bootstrap data (the Machine watch wakes it, no timer)', {}, {}, 'WaitingForBootstrapData', undefined],
    ['VM still starting', { startupSeconds: 30 }, { dataSecretName: 's' }, 'VMProvisioning', 30],
    ['NeverReady', { failure: { mode: 'NeverReady' } }, { dataSecretName: 's' }, 'NeverReady', undefined],
    ['Fail', { failure: { mode: 'Fail', message: 'disk exploded' } }, { dataSecretName: 's' }, 'ProvisioningFailed', undefined],
    ['startupSeconds 0 provisions at once', { startupSeconds: 0 }, { dataSecretName: 's' }, 'Provisioned', undefined],
  ])('%s', async (_name, spec, opts, reason, requeue) => {
    const ctx = await setup(spec, opts);
    const result = await runReconcile(inMemoryMachineReconciler, ctx, key);
    const obj = await ctx.store.get(key);
    expect(ready(obj)?.reason).toBe(reason);
    expect(result.requeueAfterSeconds).toBe(requeue);
    expect(obj?.status?.initialization).toEqual({ provisioned: reason === 'Provisioned' });
  });

  it('comes up after startupSeconds with providerID, addresses, failure domain and a node the workload cluster finds', async () => {
    const ctx = await setup({}, { dataSecretName: 's' });
    expect((await runReconcile(inMemoryMachineReconciler, ctx, key)).requeueAfterSeconds).toBe(2);
    ctx.clock.advanceSeconds(2);
    await runReconcile(inMemoryMachineReconciler, ctx, key);
    const obj = await ctx.store.get(key);
    expect(obj?.spec?.providerID).toBe('in-memory://default/m1');
    expect(obj?.status).toMatchObject({
      initialization: { provisioned: true },
      addresses: [{ type: 'InternalIP', address: simulatedInternalIP('default', 'm1') }, { type: 'Hostname', address: 'm1' }],
      failureDomain: 'fd-b',
    });
    const node = await new InMemoryWorkloadCluster(ctx.store).findNodeByProviderID({ namespace: 'default', name: 'c1' }, 'in-memory://default/m1');
    expect(node).toEqual({
      name: 'm1',
      ready: true,
      info: { kubeletVersion: 'v1.31.0' },
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:02Z' }],
      labels: {},
      annotations: {},
      taints: [],
      resourceVersion: '1',
    });
  });

  it('writes its providerID and its provisioned status in one change (ADR 0140)', async () => {
    const ctx = await setup({ startupSeconds: 0 }, { dataSecretName: 's' });
    const store = ctx.store instanceof MemoryObjectStore ? ctx.store : undefined;
    const changes: ObjectChange[] = [];
    store?.onChange((c) => {
      if (c.newObject?.kind === 'InMemoryMachine') changes.push(c);
    });
    await runReconcile(inMemoryMachineReconciler, ctx, key);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.newObject?.spec?.providerID).toBe('in-memory://default/m1');
    expect(changes[0]?.newObject?.status).toMatchObject({ initialization: { provisioned: true }, observedGeneration: 2 });
  });

  it.each([
    ['False', 'False'],
    ['Unknown', 'Unknown'],
    ['', 'False'],
  ])('the node-unhealthy annotation %j makes the Node report Ready=%s, since the time it was set', async (value, status) => {
    const ctx = await setup({ startupSeconds: 0 }, { dataSecretName: 's' });
    await runReconcile(inMemoryMachineReconciler, ctx, key);
    ctx.clock.advanceSeconds(60);
    const stored = await ctx.store.get(key);
    if (!stored) throw new Error('missing');
    await ctx.store.update({ ...stored, metadata: { ...stored.metadata, annotations: { [ANNOTATION_SIMULATE_NODE_UNHEALTHY]: value } } });
    await runReconcile(inMemoryMachineReconciler, ctx, key);
    ctx.clock.advanceSeconds(30);
    await runReconcile(inMemoryMachineReconciler, ctx, key);
    const node = await new InMemoryWorkloadCluster(ctx.store).findNodeByProviderID({ namespace: 'default', name: 'c1' }, 'in-memory://default/m1');
    expect(node?.ready).toBe(false);
    expect(node?.conditions).toEqual([{ type: 'Ready', status, lastTransitionTime: '2026-01-01T00:01:00Z' }]);
  });
});
