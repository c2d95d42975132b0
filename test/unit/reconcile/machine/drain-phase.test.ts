/**
 * A deleted Machine drains its Node before its infrastructure goes (Cluster API's reconcileDelete
 * and drainNode), through the whole Machine reconcile on a simulated workload cluster: Pods are
 * evicted in passes 20 s apart, DaemonSet Pods and rules' Skip Pods stay, a disruption budget holds
 * the Machine until nodeDrainTimeoutSeconds, and the Machine goes once the Node is drained.
 */
import { describe, expect, it } from 'vitest';
import { machineReconciler } from '../../../../functions/reconcile/core/machine/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { findCondition, conditionsOf } from '../../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { type WorkloadCluster, type WorkloadObject, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { InMemoryWorkloadCluster, inMemoryProviderID } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';

const CORE = 'cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';
const FINALIZER = 'machine.cluster.x-k8s.io';
const KEY = { group: CORE, kind: 'Machine', namespace: 'default', name: 'w1' };
const CLUSTER = { namespace: 'default', name: 'c1' };
const NODE = 'w1-node';

function machine(name: string, extra: { controlPlane?: boolean; annotations?: Record<string, string>; deletion?: Record<string, unknown>; providerID?: string } = {}): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'default',
      finalizers: [FINALIZER],
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', ...(extra.controlPlane ? { 'cluster.x-k8s.io/control-plane': '' } : { pool: 'workers' }) },
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
    },
    spec: {
      clusterName: 'c1',
      bootstrap: { dataSecretName: 's' },
      infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachine', name: `${name}-infra` },
      ...(extra.providerID ? { providerID: extra.providerID } : {}),
      ...(extra.deletion ? { deletion: extra.deletion } : {}),
    },
  };
}

const pod = (name: string, fields: { labels?: Record<string, string>; controller?: string; namespace?: string } = {}): WorkloadObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: fields.namespace ?? 'default',
    ...(fields.labels ? { labels: fields.labels } : {}),
    ownerReferences: [{ apiVersion: 'apps/v1', kind: fields.controller ?? 'ReplicaSet', name: fields.controller === 'DaemonSet' ? 'agent' : 'rs', uid: 'u', controller: true }],
  },
  spec: { nodeName: NODE },
  status: { phase: 'Running' },
});

const budget = (minAvailable: number): WorkloadObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { minAvailable, selector: { matchLabels: { app: 'web' } } },
});

interface Shape {
  objects?: WorkloadObject[];
  annotations?: Record<string, string>;
  deletion?: Record<string, unknown>;
  readyStatus?: string;
  rules?: KubeObject[];
  clusterDeleting?: boolean;
}

async function setup(shape: Shape) {
  const ctx = testContext();
  const workload = new InMemoryWorkloadCluster(ctx.store);
  // What a test puts here answers instead of the simulated cluster.
  const overrides: Partial<WorkloadCluster> = {};
  const port = new Proxy(workload, {
    get: (target, key, receiver) => (key === 'readingThrough' ? undefined : Object.hasOwn(overrides, key) ? Reflect.get(overrides, key) : Reflect.get(target, key, receiver)),
  });
  ctx.providers = { workloadCluster: port };
  await ctx.store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1', namespace: 'default', labels: { env: 'prod' }, finalizers: ['keep'] }, spec: {} });
  if (shape.clusterDeleting) await ctx.store.delete({ group: CORE, kind: 'Cluster', namespace: 'default', name: 'c1' });
  await ctx.store.create(machine('cp1', { controlPlane: true }));
  const providerID = inMemoryProviderID('default', 'w1-infra');
  const infra = await ctx.store.create({ apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryMachine', metadata: { name: 'w1-infra', namespace: 'default' }, spec: { providerID } });
  const conditions = [{ type: 'Ready', status: shape.readyStatus ?? 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }];
  await ctx.store.updateStatus({ ...infra, status: { simulatedNode: { name: NODE, ready: shape.readyStatus !== 'Unknown', conditions } } });
  for (const rule of shape.rules ?? []) await ctx.store.create(rule);
  const created = await ctx.store.create(machine('w1', { providerID, ...(shape.annotations ? { annotations: shape.annotations } : {}), ...(shape.deletion ? { deletion: shape.deletion } : {}) }));
  await ctx.store.updateStatus({ ...created, status: { nodeRef: { name: NODE } } });
  await workload.applyObjects(CLUSTER, shape.objects ?? [], { mode: 'CreateOnly' });
  await ctx.store.delete(KEY);
  const podsLeft = () => workload.objects.pods.podsOnNode(CLUSTER, NODE).map((p) => p.name).sort();
  const deleting = async () => findCondition(conditionsOf((await ctx.store.get(KEY))?.status), 'Deleting');
  const cordoned = async () => (await workload.findNodeByProviderID(CLUSTER, providerID))?.unschedulable === true;
  return { ctx, workload, overrides, podsLeft, deleting, cordoned };
}

const daemonSet: WorkloadObject = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'kube-system' }, spec: {} };

describe('a deleted Machine drains its Node first', () => {
  it('cordons the Node, evicts its Pods, waits 20 s for them to leave, then lets the Machine go; the DaemonSet Pod stays', async () => {
    const { ctx, podsLeft, deleting, cordoned } = await setup({ objects: [daemonSet, pod('web-1'), pod('web-2'), pod('agent-x', { controller: 'DaemonSet', namespace: 'kube-system' })] });
    const first = await runReconcile(machineReconciler, ctx, KEY);
    expect(first.requeueAfterSeconds).toBe(20);
    expect(await cordoned()).toBe(true);
    expect(podsLeft()).toEqual(['agent-x']);
    const condition = await deleting();
    expect(condition).toMatchObject({ status: 'True', reason: 'DrainingNode' });
    expect(condition?.message).toBe(`Drain not completed yet (started at ${ctx.clock.now().toISOString().slice(0, 19)}Z):\n* Pods default/web-1, default/web-2: deletionTimestamp set, but still not removed from the Node`);
    expect((await ctx.store.get(KEY))?.status?.deletion).toEqual({ nodeDrainStartTime: `${ctx.clock.now().toISOString().slice(0, 19)}Z` });
    expect(await ctx.store.get({ group: INFRA, kind: 'InMemoryMachine', namespace: 'default', name: 'w1-infra' })).toBeDefined();

    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('a disruption budget with no room holds the Machine with its reason, until nodeDrainTimeoutSeconds has passed', async () => {
    const { ctx, podsLeft, deleting } = await setup({ objects: [pod('web-1', { labels: { app: 'web' } }), pod('web-2', { labels: { app: 'web' } }), budget(2)], deletion: { nodeDrainTimeoutSeconds: 60 } });
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    expect(podsLeft()).toEqual(['web-1', 'web-2']);
    expect((await deleting())?.message).toContain(
      "* Pods default/web-1, default/web-2: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently",
    );
    ctx.clock.advanceSeconds(40);
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
    expect(podsLeft()).toEqual(['web-1', 'web-2']);
  });

  it('a budget with room lets one Pod go per pass', async () => {
    const { ctx, podsLeft } = await setup({ objects: [pod('web-1', { labels: { app: 'web' } }), pod('web-2', { labels: { app: 'web' } }), budget(1)] });
    await runReconcile(machineReconciler, ctx, KEY);
    expect(podsLeft()).toEqual(['web-2']);
  });

  it.for([
    ['exclude-node-draining', { annotations: { 'machine.cluster.x-k8s.io/exclude-node-draining': '' } }],
    ['the Cluster is being deleted', { clusterDeleting: true }],
  ] as const)('%s: no drain, the Machine goes at once', async ([, shape], context) => {
    const { ctx, podsLeft, cordoned } = await setup({ ...shape, objects: [pod('web-1')] });
    await runReconcile(machineReconciler, ctx, KEY);
    context.expect(await ctx.store.get(KEY)).toBeUndefined();
    context.expect(podsLeft()).toEqual(['web-1']);
    context.expect(await cordoned()).toBe(false);
  });

  it('MachineDrainRules that select the Machine and Cluster decide: Skip leaves a Pod, order puts one last', async () => {
    const rule = (name: string, drain: Record<string, unknown>, pods: unknown[], machines?: unknown[]): KubeObject => ({
      apiVersion: `${CORE}/v1beta2`,
      kind: 'MachineDrainRule',
      metadata: { name, namespace: 'default' },
      spec: { drain, pods, ...(machines ? { machines } : {}) },
    });
    const rules = [
      rule('skip-batch', { behavior: 'Skip' }, [{ selector: { matchLabels: { app: 'batch' } } }], [{ selector: { matchLabels: { pool: 'workers' } }, clusterSelector: { matchLabels: { env: 'prod' } } }]),
      rule('db-last', { behavior: 'Drain', order: 10 }, [{ selector: { matchLabels: { app: 'db' } } }]),
      rule('not-this-cluster', { behavior: 'Skip' }, [{ selector: { matchLabels: { app: 'web' } } }], [{ clusterSelector: { matchLabels: { env: 'dev' } } }]),
    ];
    const { ctx, podsLeft, deleting } = await setup({ rules, objects: [pod('batch', { labels: { app: 'batch' } }), pod('db', { labels: { app: 'db' } }), pod('web', { labels: { app: 'web' } })] });
    await runReconcile(machineReconciler, ctx, KEY);
    expect(podsLeft()).toEqual(['batch', 'db']);
    expect((await deleting())?.message).toContain('After above Pods have been removed from the Node, the following Pods will be evicted: default/db');
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(podsLeft()).toEqual(['batch']);
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('an unreachable Node: evictions ask for a 1 s grace period, and a Pod terminating for over a second is no longer waited for', async () => {
    const { ctx, workload, overrides, podsLeft } = await setup({ readyStatus: 'Unknown' });
    const stuck = pod('stuck');
    stuck.metadata.deletionTimestamp = new Date(ctx.clock.now().getTime() - 5000).toISOString();
    await workload.applyObjects(CLUSTER, [stuck, pod('web-1')], { mode: 'CreateOnly' });
    const asked: unknown[] = [];
    const evict = workload.evictPod.bind(workload);
    overrides.evictPod = async (cluster, target, options) => {
      asked.push([target.name, options]);
      return evict(cluster, target, options);
    };
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    expect(asked).toEqual([['web-1', { gracePeriodSeconds: 1 }]]);
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
    expect(podsLeft()).toEqual(['stuck']);
  });

  it('a workload API that does not answer holds the Machine with the error, and is asked again in 20 s', async () => {
    const { ctx, overrides, deleting } = await setup({ objects: [pod('web-1')] });
    overrides.listPodsOnNode = async () => {
      throw new WorkloadClusterUnavailableError('ConnectionDown', 'listing the Pods: ECONNREFUSED');
    };
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    expect(await deleting()).toMatchObject({ reason: 'DrainingNode', message: 'Error draining Node: listing the Pods: ECONNREFUSED' });
  });

  it('a MachineDrainRule with an invalid selector stops the drain until it is fixed', async () => {
    const broken: KubeObject = {
      apiVersion: `${CORE}/v1beta2`,
      kind: 'MachineDrainRule',
      metadata: { name: 'broken', namespace: 'default' },
      spec: { drain: { behavior: 'Skip' }, pods: [{ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }] },
    };
    const { ctx, podsLeft, deleting } = await setup({ rules: [broken], objects: [pod('web-1')] });
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    expect(podsLeft()).toEqual(['web-1']);
    expect((await deleting())?.message).toMatch(/^Error draining Node w1-node: failed to get Pods for eviction: failed to get matching MachineDrainRules: invalid selectors in MachineDrainRule broken: spec\.pods\[0\]\.selector/);
  });

  it('once the pre-terminate hooks are waited for, the Node is not drained again', async () => {
    const { ctx, workload, podsLeft } = await setup({ annotations: { 'pre-terminate.delete.hook.machine.cluster.x-k8s.io/backup': '' } });
    await runReconcile(machineReconciler, ctx, KEY);
    expect((await ctx.store.get(KEY))?.status?.deletion).toHaveProperty('waitForPreTerminateHookStartTime');
    await workload.applyObjects(CLUSTER, [pod('late')], { mode: 'CreateOnly' });
    await runReconcile(machineReconciler, ctx, KEY);
    expect(podsLeft()).toEqual(['late']);
  });

  it('a Node with nothing to evict is drained in the same run: the Machine goes at once', async () => {
    const { ctx } = await setup({ objects: [daemonSet, pod('agent-x', { controller: 'DaemonSet', namespace: 'kube-system' })] });
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });
});

describe('then waits for its Node\'s volumes to detach', () => {
  const volume = (name: string, claim: string): WorkloadObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: { csi: { driver: 'ebs.csi.aws.com', volumeHandle: `vol-${name}` }, claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: claim } },
  });
  const attachment = (pv: string): WorkloadObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: `va-${pv}` },
    spec: { attacher: 'ebs.csi.aws.com', nodeName: NODE, source: { persistentVolumeName: pv } },
    status: { attached: true },
  });
  const using = (name: string, claim: string, labels: Record<string, string> = {}): WorkloadObject => {
    const p = pod(name, { labels });
    p.spec = { nodeName: NODE, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] };
    return p;
  };

  it('a volume still attached holds the Machine; once its Pod is evicted the volume detaches and the Machine goes', async () => {
    const { ctx, workload, overrides, deleting } = await setup({ objects: [volume('pv-db', 'data-db'), attachment('pv-db'), using('db-0', 'data-db')] });
    // The attach/detach controller is slow this time: the attachment outlives the Pod.
    const evict = workload.evictPod.bind(workload);
    overrides.evictPod = async (cluster, target, options) => {
      const attached = workload.objects.list(CLUSTER, 'storage.k8s.io/v1', 'VolumeAttachment');
      const outcome = await evict(cluster, target, options);
      await workload.applyObjects(CLUSTER, attached, { mode: 'CreateOnly' });
      return outcome;
    };
    await runReconcile(machineReconciler, ctx, KEY);
    ctx.clock.advanceSeconds(20);
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(20);
    const started = `${ctx.clock.now().toISOString().slice(0, 19)}Z`;
    expect(await deleting()).toMatchObject({ reason: 'WaitingForVolumeDetach', message: `Waiting for Node volumes to be detached (started at ${started})\n* PersistentVolumeClaims: default/data-db` });
    expect((await ctx.store.get(KEY))?.status?.deletion).toMatchObject({ waitForNodeVolumeDetachStartTime: started });

    workload.objects.remove(CLUSTER, attachment('pv-db'));
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('evicting the last Pod that uses a claim detaches its volume at once in the simulation: no wait', async () => {
    const { ctx } = await setup({ objects: [volume('pv-db', 'data-db'), attachment('pv-db'), using('db-0', 'data-db')] });
    await runReconcile(machineReconciler, ctx, KEY);
    ctx.clock.advanceSeconds(20);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('the volume of a Pod the drain leaves is not waited for: the Machine goes in one run', async () => {
    const { ctx } = await setup({ objects: [volume('pv-db', 'data-db'), attachment('pv-db'), using('db-0', 'data-db', { 'cluster.x-k8s.io/drain': 'skip' })] });
    await runReconcile(machineReconciler, ctx, KEY);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it.for([
    ['no gate: an attachment whose volume is unknown is waited for', {}, 0, true],
    ['exclude-wait-for-node-volume-detach: not waited for', { annotations: { 'machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach': '' } }, 0, false],
    ['past nodeVolumeDetachTimeoutSeconds: no longer waited for', { deletion: { nodeVolumeDetachTimeoutSeconds: 5 } }, 6, false],
    ['within nodeVolumeDetachTimeoutSeconds: still waited for', { deletion: { nodeVolumeDetachTimeoutSeconds: 5 } }, 4, true],
  ] as const)('%s', async ([, shape, after, held], context) => {
    const { ctx, deleting } = await setup({ ...shape, objects: [attachment('pv-unknown')] });
    await runReconcile(machineReconciler, ctx, KEY);
    ctx.clock.advanceSeconds(after);
    await runReconcile(machineReconciler, ctx, KEY);
    context.expect((await ctx.store.get(KEY)) !== undefined).toBe(held);
    if (held) context.expect((await deleting())?.message).toContain('* VolumeAttachment with .spec.source.persistentVolumeName not matching a PersistentVolume: pv-unknown');
  });
});
