import { describe, expect, it } from 'vitest';
import { type KubeObject, keyOf } from '../../../../shared/contracts/object.js';
import { createMachineScope } from '../../../../functions/reconcile/core/machine/scope.js';
import {
  reconcileBootstrapPhase,
  reconcileInfrastructurePhase,
  reconcileNodePhase,
} from '../../../../functions/reconcile/core/machine/phases.js';
import { machineReconciler } from '../../../../functions/reconcile/core/machine/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { testContext } from '../../../support/reconcile-context.js';
import { type WorkloadCluster, WorkloadClusterAccessDeniedError, WorkloadClusterConflictError, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const BOOT = 'bootstrap.cluster.x-k8s.io';

function machine(spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'default' },
    spec: { clusterName: 'c1', ...spec },
    status,
  };
}

const infraRef = (kind = 'InMemoryMachine') => ({ infrastructureRef: { apiGroup: INFRA, kind, name: 'm1' } });
const configRef = { bootstrap: { configRef: { apiGroup: BOOT, kind: 'KubeadmConfig', name: 'm1' } } };

async function scopeWith(machineObj: KubeObject, others: KubeObject[]) {
  const ctx = testContext();
  for (const o of others) await ctx.store.create(o);
  const stored = await ctx.store.create(machineObj);
  return createMachineScope(ctx, stored);
}

describe('reconcileBootstrapPhase', () => {
  it.each<[string, Record<string, unknown>, KubeObject[], { created: boolean; reason: string; requeue?: number; secret?: string }]>([
    ['preset data secret', { bootstrap: { dataSecretName: 's' } }, [], { created: true, reason: 'DataSecretProvided' }],
    ['config missing', configRef, [], { created: false, reason: 'BootstrapConfigDoesNotExist', requeue: 30 }],
    [
      'config not ready',
      configRef,
      [{ apiVersion: `${BOOT}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'm1' }, spec: {} }],
      { created: false, reason: 'DataSecretNotCreated' },
    ],
    [
      'config created the secret',
      configRef,
      [{ apiVersion: `${BOOT}/v1beta2`, kind: 'KubeadmConfig', metadata: { name: 'm1' }, spec: {}, status: {} }],
      { created: true, reason: 'Ready', secret: 'm1-data' },
    ],
    [
      'unknown bootstrap kind',
      { bootstrap: { configRef: { apiGroup: 'bootstrap.example.com', kind: 'TalosConfig', name: 'm1' } } },
      [],
      { created: false, reason: 'ProviderNotInstalled', requeue: 300 },
    ],
  ])('%s', async (name, spec, others, expected) => {
    const s = await scopeWith(machine(spec), others);
    if (name === 'config created the secret') {
      const config = await s.ctx.store.get({ group: BOOT, kind: 'KubeadmConfig', namespace: 'default', name: 'm1' });
      if (!config) throw new Error('missing');
      await s.ctx.store.updateStatus({ ...config, status: { initialization: { dataSecretCreated: true }, dataSecretName: 'm1-data' } });
    }
    const result = await reconcileBootstrapPhase(s);
    expect(s.bootstrapDataSecretCreated).toBe(expected.created);
    expect(s.conditions.find((c) => c.type === 'BootstrapConfigReady')?.reason).toBe(expected.reason);
    expect(result.requeueAfterSeconds).toBe(expected.requeue);
    expect(s.desired.spec?.bootstrap).toMatchObject(expected.secret ? { dataSecretName: expected.secret } : {});
    if (others.length > 0) {
      const config = await s.ctx.store.get({ group: BOOT, kind: 'KubeadmConfig', namespace: 'default', name: 'm1' });
      expect(config?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Machine', name: 'm1', controller: true })]);
      expect(config?.metadata.labels).toEqual({ 'cluster.x-k8s.io/cluster-name': 'c1' });
    }
  });
});

function inMemoryMachine(spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryMachine', metadata: { name: 'm1' }, spec };
}

describe('reconcileInfrastructurePhase', () => {
  it.each<[
    string,
    Record<string, unknown>,
    KubeObject[],
    Record<string, unknown> | undefined,
    { provisioned: boolean; reason: string; requeue?: number; providerID?: string },
  ]>([
    ['infra missing', infraRef(), [], undefined, { provisioned: false, reason: 'InfrastructureDoesNotExist', requeue: 30 }],
    ['Docker kind nobody reconciles', infraRef('DockerMachine'), [], undefined, { provisioned: false, reason: 'ProviderNotInstalled', requeue: 300 }],
    ['not provisioned', infraRef(), [inMemoryMachine()], {}, { provisioned: false, reason: 'NotProvisioned' }],
    [
      'provisioned without providerID',
      infraRef(),
      [inMemoryMachine()],
      { initialization: { provisioned: true } },
      { provisioned: false, reason: 'WaitingForProviderID', requeue: 5 },
    ],
    [
      'provisioned',
      infraRef(),
      [inMemoryMachine({ providerID: 'in-memory://default/m1' })],
      { initialization: { provisioned: true }, addresses: [{ type: 'InternalIP', address: '10.0.0.9' }], failureDomain: 'fd-b' },
      { provisioned: true, reason: 'Ready', providerID: 'in-memory://default/m1' },
    ],
  ])('%s', async (_name, spec, others, infraStatus, expected) => {
    const s = await scopeWith(machine(spec), others);
    if (infraStatus) {
      const infra = await s.ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' });
      if (!infra) throw new Error('missing');
      await s.ctx.store.updateStatus({ ...infra, status: infraStatus });
    }
    const result = await reconcileInfrastructurePhase(s);
    expect(s.infrastructureProvisioned).toBe(expected.provisioned);
    expect(s.conditions.find((c) => c.type === 'InfrastructureReady')?.reason).toBe(expected.reason);
    expect(result.requeueAfterSeconds).toBe(expected.requeue);
    expect(s.desired.spec?.providerID).toBe(expected.providerID);
    if (expected.provisioned) {
      expect(s.addresses).toEqual([{ type: 'InternalIP', address: '10.0.0.9' }]);
      expect(s.failureDomain).toBe('fd-b');
    }
  });

  it('reports InfrastructureDeleted when provisioned infrastructure vanishes', async () => {
    const s = await scopeWith(machine(infraRef(), { initialization: { infrastructureProvisioned: true } }), []);
    const result = await reconcileInfrastructurePhase(s);
    expect(s.conditions.find((c) => c.type === 'InfrastructureReady')?.reason).toBe('InfrastructureDeleted');
    expect(result.requeueAfterSeconds).toBeUndefined();
  });
});

describe('reconcileNodePhase', () => {
  it.each<[string, string | undefined, { found?: string; ready?: boolean; error?: Error }, string, number | undefined]>([
    ['no providerID', undefined, {}, 'WaitingForProviderID', undefined],
    ['node not there yet', 'in-memory://default/m1', {}, 'NodeDoesNotExist', 10],
    ['node ready', 'in-memory://default/m1', { found: 'm1', ready: true }, 'NodeHealthy', undefined],
    ['node not ready', 'in-memory://default/m1', { found: 'm1', ready: false }, 'NodeNotReady', undefined],
    ['no kubeconfig Secret yet', 'aws:///us-east-1a/i-1', { error: new WorkloadClusterUnavailableError('KubeconfigNotFound', 'waiting for Secret default/c1-kubeconfig') }, 'ConnectionDown', 10],
    ['workload API unreachable', 'aws:///us-east-1a/i-1', { error: new WorkloadClusterUnavailableError('ConnectionDown', 'ECONNREFUSED') }, 'ConnectionDown', 10],
    ['credentials refused', 'aws:///us-east-1a/i-1', { error: new WorkloadClusterAccessDeniedError(403, 'forbidden') }, 'InspectionFailed', 300],
  ])('%s', async (_name, providerID, node, reason, requeue) => {
    const workloadCluster: WorkloadCluster = workloadClusterStub({
      findNodeByProviderID: async () => {
        if (node.error) throw node.error;
        return node.found ? { name: node.found, ...(node.ready === undefined ? {} : { ready: node.ready }) } : undefined;
      },
    });
    const ctx = testContext({ providers: { workloadCluster } });
    const cluster = await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1' }, spec: {} });
    const stored = await ctx.store.create(machine(providerID ? { providerID } : {}));
    const s = createMachineScope(ctx, stored);
    s.cluster = cluster;
    const result = await reconcileNodePhase(s);
    expect(s.conditions.find((c) => c.type === 'NodeHealthy')?.reason).toBe(reason);
    expect(result.requeueAfterSeconds).toBe(requeue);
    expect(s.node?.name).toBe(node.found);
    if (node.error) expect(s.conditions.find((c) => c.type === 'NodeHealthy')).toMatchObject({ status: 'Unknown', message: node.error.message });
  });
});

describe('reconcileNodePhase: the Node is synced from its Machine', () => {
  async function run(patchNode: WorkloadCluster['patchNode'], deleting = false) {
    const calls: Parameters<WorkloadCluster['patchNode']>[] = [];
    const workloadCluster: WorkloadCluster = workloadClusterStub({
      findNodeByProviderID: async () => ({ name: 'ip-1', ready: true, labels: {}, annotations: {}, taints: [{ key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' }], resourceVersion: '5' }),
      patchNode: async (...args) => {
        calls.push(args);
        return patchNode(...args);
      },
    });
    const ctx = testContext({ providers: { workloadCluster } });
    const cluster = await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1' }, spec: {} });
    const base = machine({ providerID: 'aws:///us-east-1a/i-1' });
    const stored = await ctx.store.create({ ...base, metadata: { ...base.metadata, labels: { 'node-role.kubernetes.io/worker': '' }, ...(deleting ? { finalizers: ['f'] } : {}) } });
    const current = deleting ? await ctx.store.delete(keyOf(stored)).then(() => ctx.store.get(keyOf(stored))) : stored;
    if (!current) throw new Error('machine missing');
    const s = createMachineScope(ctx, current);
    s.cluster = cluster;
    return { result: await reconcileNodePhase(s), calls, s };
  }

  it('patches the Node once found: its labels, bookkeeping annotations, the uninitialized taint gone, at the version read', async () => {
    const { result, calls, s } = await run(async () => {});
    expect(calls).toHaveLength(1);
    const [ref, name, patch] = calls[0] ?? [];
    expect([ref, name]).toEqual([{ namespace: 'default', name: 'c1' }, 'ip-1']);
    expect(patch).toMatchObject({ labels: { 'node-role.kubernetes.io/worker': '' }, annotations: { 'cluster.x-k8s.io/machine': 'm1' }, taints: [], resourceVersion: '5' });
    expect(result.requeueAfterSeconds).toBeUndefined();
    expect(s.conditions.find((c) => c.type === 'NodeHealthy')?.status).toBe('True');
  });

  it('a Node changed meanwhile (409) is read again in a second', async () => {
    const { result } = await run(async () => {
      throw new WorkloadClusterConflictError('the object has been modified');
    });
    expect(result.requeueAfterSeconds).toBe(1);
  });

  it('a deleting Machine leaves its Node alone', async () => {
    const { calls } = await run(async () => {}, true);
    expect(calls).toEqual([]);
  });
});

describe('machine deletion', () => {
  const key = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'm1' };

  it.each<[string, Record<string, string>, string, string]>([
    ['pre-drain hook', { 'pre-drain.delete.hook.machine.cluster.x-k8s.io/keep': 'me' }, 'WaitingForPreDrainHook', 'waitForPreDrainHookStartTime'],
    ['pre-terminate hook', { 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/kcp-cleanup': '' }, 'WaitingForPreTerminateHook', 'waitForPreTerminateHookStartTime'],
  ])('waits on a %s, records since when, and keeps the infrastructure', async (_name, annotations, reason, startTime) => {
    const ctx = testContext();
    await ctx.store.create(inMemoryMachine());
    await ctx.store.create({ ...machine({ ...infraRef(), bootstrap: { dataSecretName: 's' } }), metadata: { name: 'm1', namespace: 'default', annotations } });
    await runReconcile(machineReconciler, ctx, key);
    await ctx.store.delete(key);
    await runReconcile(machineReconciler, ctx, key);
    const m = await ctx.store.get(key);
    expect(m?.metadata.finalizers).toEqual(['machine.cluster.x-k8s.io']);
    expect(m?.status?.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Deleting', reason })]));
    expect(m?.status?.deletion).toEqual({ [startTime]: `${ctx.clock.now().toISOString().slice(0, 19)}Z` });
    expect(await ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' })).toBeDefined();
    // Later runs keep the time the wait began.
    ctx.clock.advanceSeconds(30);
    await runReconcile(machineReconciler, ctx, key);
    expect((await ctx.store.get(key))?.status?.deletion).toEqual(m?.status?.deletion);
  });

  it('deletes the InfraMachine, then drops the finalizer', async () => {
    const ctx = testContext();
    await ctx.store.create(inMemoryMachine());
    await ctx.store.create(machine({ ...infraRef(), bootstrap: { dataSecretName: 's' } }));
    await runReconcile(machineReconciler, ctx, key);
    await ctx.store.delete(key);
    await runReconcile(machineReconciler, ctx, key);
    expect(await ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'm1' })).toBeUndefined();
    expect(await ctx.store.get(key)).toBeUndefined();
  });

  it.each<[string, boolean, number | undefined]>([
    ['owned by the Machine: the owner watch wakes it', true, undefined],
    ['not owned (deleted before adoption): a timer does', false, 5],
  ])('waits while the InfraMachine has its own finalizer; %s', async (_name, adopted, requeue) => {
    const ctx = testContext();
    await ctx.store.create({ ...inMemoryMachine(), metadata: { name: 'm1', finalizers: ['example.com/slow'] } });
    const m = machine({ ...infraRef(), bootstrap: { dataSecretName: 's' } });
    await ctx.store.create({ ...m, metadata: { ...m.metadata, finalizers: ['machine.cluster.x-k8s.io'] } });
    if (adopted) await runReconcile(machineReconciler, ctx, key);
    await ctx.store.delete(key);
    const result = await runReconcile(machineReconciler, ctx, key);
    expect(result.requeueAfterSeconds).toBe(requeue);
    expect((await ctx.store.get(key))?.status?.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Deleting', reason: 'WaitingForInfrastructureDeletion' })]),
    );
  });
});
