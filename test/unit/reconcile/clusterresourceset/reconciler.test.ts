import { describe, expect, it } from 'vitest';
import { bindingEntriesOf } from '../../../../functions/reconcile/addons/clusterresourceset/bindings-store.js';
import { clusterResourceSetReconciler } from '../../../../functions/reconcile/addons/clusterresourceset/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { findCondition, conditionsOf } from '../../../../shared/contracts/conditions.js';
import { valueAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { WORKLOAD_CLUSTER_PORT, type WorkloadCluster, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const NS = 'default';
const CRS_KEY = { group: 'addons.cluster.x-k8s.io', kind: 'ClusterResourceSet', namespace: NS, name: 'cni' };
const bindingKey = (cluster: string) => ({ group: 'addons.cluster.x-k8s.io', kind: 'ClusterResourceSetBinding', namespace: NS, name: cluster });

const crs = (strategy: 'ApplyOnce' | 'Reconcile', resources = [{ kind: 'ConfigMap', name: 'calico' }]): KubeObject => ({
  apiVersion: 'addons.cluster.x-k8s.io/v1beta2',
  kind: 'ClusterResourceSet',
  metadata: { name: 'cni', namespace: NS },
  spec: { clusterSelector: { matchLabels: { cni: 'calico' } }, resources, strategy },
});

const configMap = (version: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'calico', namespace: NS },
  data: { 'calico.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: calico-config, namespace: kube-system}\ndata: {version: ${version}}\n` },
});

async function cluster(ctx: ReturnType<typeof testContext>, name: string, labels: Record<string, string>, initialized: boolean): Promise<void> {
  const created = await ctx.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name, namespace: NS, labels }, spec: {} });
  await ctx.store.updateStatus({ ...created, status: { initialization: { controlPlaneInitialized: initialized } } });
}

function setup(workload?: WorkloadCluster) {
  const ctx = testContext();
  const inMemory = new InMemoryWorkloadCluster(ctx.store);
  const withPort = testContext({ store: ctx.store, clock: ctx.clock, providers: { [WORKLOAD_CLUSTER_PORT]: workload ?? inMemory } });
  return { ctx: withPort, inMemory };
}

/** What the binding records for the set `cni`. */
async function recordsOf(ctx: ReturnType<typeof testContext>, cluster: string) {
  const binding = await ctx.store.get(bindingKey(cluster));
  return binding ? bindingEntriesOf(binding).find((b) => b.clusterResourceSetName === 'cni')?.resources : undefined;
}

const appliedVersion = (inMemory: InMemoryWorkloadCluster, name: string) =>
  valueAt(inMemory.objects.objectsOf({ namespace: NS, name }).find((o) => o.metadata.name === 'calico-config'), 'data', 'version');

describe('ClusterResourceSet reconciler', () => {
  it('applies to the selected, initialized Clusters only and records each in its binding', async () => {
    const { ctx, inMemory } = setup();
    await cluster(ctx, 'selected', { cni: 'calico' }, true);
    await cluster(ctx, 'not-initialized', { cni: 'calico' }, false);
    await cluster(ctx, 'other', { cni: 'cilium' }, true);
    await ctx.store.create(configMap('v1'));
    await ctx.store.create(crs('ApplyOnce'));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);

    expect(appliedVersion(inMemory, 'selected')).toBe('v1');
    expect(inMemory.objects.objectsOf({ namespace: NS, name: 'not-initialized' })).toEqual([]);
    expect(inMemory.objects.objectsOf({ namespace: NS, name: 'other' })).toEqual([]);
    const binding = await ctx.store.get(bindingKey('selected'));
    const set = await ctx.store.get(CRS_KEY);
    expect(binding?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ClusterResourceSet', name: 'cni', uid: set?.metadata.uid })]);
    expect(binding?.spec).toEqual({
      clusterName: 'selected',
      bindings: [{ clusterResourceSetName: 'cni', resources: [{ kind: 'ConfigMap', name: 'calico', applied: true, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), lastAppliedTime: expect.any(String) }] }],
    });
    expect(await ctx.store.get(bindingKey('not-initialized'))).toBeUndefined();
    expect(findCondition(conditionsOf(set?.status), 'ResourcesApplied')).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(set?.metadata.finalizers).toEqual(['addons.cluster.x-k8s.io']);
  });

  it.each([
    ['ApplyOnce', 'v1'],
    ['Reconcile', 'v2'],
  ] as const)('%s: after the resource changes, the workload cluster holds %s', async (strategy, expected) => {
    const { ctx, inMemory } = setup();
    await cluster(ctx, 'c1', { cni: 'calico' }, true);
    const resource = await ctx.store.create(configMap('v1'));
    await ctx.store.create(crs(strategy));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    const firstHash = (await recordsOf(ctx, 'c1'))?.[0]?.hash;
    expect(firstHash).toMatch(/^sha256:/);
    await ctx.store.update({ ...resource, data: configMap('v2').data });
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect(appliedVersion(inMemory, 'c1')).toBe(expected);
    const hash = (await recordsOf(ctx, 'c1'))?.[0]?.hash;
    expect(hash === firstHash).toBe(strategy === 'ApplyOnce');
  });

  it.each<[string, KubeObject | undefined, string]>([
    ['a missing resource', undefined, 'InternalError'],
    ['a Secret of another type', { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'calico', namespace: NS }, data: {} }, 'WrongSecretType'],
  ])('reports %s in ResourcesApplied', async (_name, resource, reason) => {
    const { ctx } = setup();
    await cluster(ctx, 'c1', { cni: 'calico' }, true);
    if (resource) await ctx.store.create(resource);
    await ctx.store.create(crs('ApplyOnce', [{ kind: resource?.kind ?? 'ConfigMap', name: 'calico' }]));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    const set = await ctx.store.get(CRS_KEY);
    expect(findCondition(conditionsOf(set?.status), 'ResourcesApplied')).toMatchObject({ status: 'False', reason });
  });

  it('an unreachable workload cluster records nothing as applied and retries', async () => {
    const unreachable: WorkloadCluster = workloadClusterStub({
      applyObjects: async () => {
        throw new WorkloadClusterUnavailableError('KubeconfigNotFound', 'waiting for Secret default/c1-kubeconfig');
      },
    });
    const { ctx } = setup(unreachable);
    await cluster(ctx, 'c1', { cni: 'calico' }, true);
    await ctx.store.create(configMap('v1'));
    await ctx.store.create(crs('ApplyOnce'));
    const result = await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect(result.requeueAfterSeconds).toBe(10);
    const set = await ctx.store.get(CRS_KEY);
    expect(findCondition(conditionsOf(set?.status), 'ResourcesApplied')).toMatchObject({ status: 'False', reason: 'NotApplied', message: expect.stringContaining('c1-kubeconfig') });
    expect(await recordsOf(ctx, 'c1')).toEqual([]);
  });

  it('deleting the set removes it from the bindings (and an empty binding); a removed Cluster takes its binding', async () => {
    const { ctx } = setup();
    await cluster(ctx, 'kept', { cni: 'calico' }, true);
    await cluster(ctx, 'removed', { cni: 'calico' }, true);
    await ctx.store.create(configMap('v1'));
    await ctx.store.create(crs('ApplyOnce'));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect(await ctx.store.get(bindingKey('removed'))).toBeDefined();

    await ctx.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'removed' });
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect(await ctx.store.get(bindingKey('removed'))).toBeUndefined();

    await ctx.store.delete(CRS_KEY);
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect(await ctx.store.get(CRS_KEY)).toBeUndefined();
    expect(await ctx.store.get(bindingKey('kept'))).toBeUndefined();
  });

  it('running twice writes the binding once', async () => {
    const { ctx } = setup();
    await cluster(ctx, 'c1', { cni: 'calico' }, true);
    await ctx.store.create(configMap('v1'));
    await ctx.store.create(crs('Reconcile'));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    const first = await ctx.store.get(bindingKey('c1'));
    await runReconcile(clusterResourceSetReconciler, ctx, CRS_KEY);
    expect((await ctx.store.get(bindingKey('c1')))?.metadata.resourceVersion).toBe(first?.metadata.resourceVersion);
  });
});
