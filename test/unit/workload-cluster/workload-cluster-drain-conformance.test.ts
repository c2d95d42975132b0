/**
 * What a Node drain asks of a workload cluster, on every WorkloadCluster implementation: the Pods
 * bound to a Node, the Namespaces, DaemonSets, cordoning, and evictions as kube-apiserver's
 * eviction subresource answers them (PodDisruptionBudgets, terminating namespaces, Pods gone).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkloadObject } from '../../../shared/ports/workload-cluster.js';
import { WORKLOAD_CLUSTER_IMPLEMENTATIONS, type WorkloadClusterHarness } from '../../support/workload-cluster-harness.js';

let harness: WorkloadClusterHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

interface PodShape {
  node?: string;
  labels?: Record<string, string>;
  controller?: string;
  phase?: string;
  emptyDir?: boolean;
  deleting?: boolean;
}

const pod = (namespace: string, name: string, shape: PodShape = {}): WorkloadObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    ...(shape.labels ? { labels: shape.labels } : {}),
    ...(shape.controller ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: shape.controller, name: 'owner', uid: 'u-1', controller: true }] } : {}),
    ...(shape.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: { nodeName: shape.node ?? 'n1', containers: [{ name: 'c', image: 'nginx' }], ...(shape.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : {}) },
  status: { phase: shape.phase ?? 'Running' },
});

/** A budget over `app: web` and the status the disruption controller would give it over `healthy` Pods. */
const budget = (minAvailable: number, healthy: number): WorkloadObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { minAvailable, selector: { matchLabels: { app: 'web' } } },
  status: { disruptionsAllowed: Math.max(0, healthy - minAvailable), desiredHealthy: minAvailable, currentHealthy: healthy, expectedPods: healthy },
});

const namespace = (name: string, labels: Record<string, string>, terminating = false): WorkloadObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { ...labels, 'kubernetes.io/metadata.name': name } },
  ...(terminating ? { status: { phase: 'Terminating' } } : {}),
});

async function apply(h: WorkloadClusterHarness, ...objects: WorkloadObject[]): Promise<void> {
  expect(await h.workload.applyObjects(h.cluster, objects, { mode: 'CreateOrUpdate' })).toEqual([]);
}

async function podNames(h: WorkloadClusterHarness, node = 'n1'): Promise<string[]> {
  return (await h.workload.listPodsOnNode(h.cluster, node)).map((p) => `${p.namespace}/${p.name}`).sort();
}

describe.each(WORKLOAD_CLUSTER_IMPLEMENTATIONS)('WorkloadCluster drain conformance: %s', (_name, start) => {
  it('lists the Pods bound to the Node in every namespace, and only those, with what a drain reads of them', async () => {
    harness = await start();
    await apply(
      harness,
      pod('default', 'web-1', { labels: { app: 'web' }, controller: 'ReplicaSet' }),
      pod('kube-system', 'agent', { controller: 'DaemonSet', emptyDir: true }),
      pod('default', 'elsewhere', { node: 'n2' }),
      pod('default', 'done', { phase: 'Succeeded', deleting: true }),
    );
    expect(await podNames(harness)).toEqual(['default/done', 'default/web-1', 'kube-system/agent']);
    const pods = await harness.workload.listPodsOnNode(harness.cluster, 'n1');
    expect(pods.find((p) => p.name === 'web-1')).toEqual({ namespace: 'default', name: 'web-1', labels: { app: 'web' }, annotations: {}, controller: { kind: 'ReplicaSet', name: 'owner' }, phase: 'Running', localStorage: false, persistentVolumeClaims: [] });
    expect(pods.find((p) => p.name === 'agent')).toMatchObject({ controller: { kind: 'DaemonSet', name: 'owner' }, localStorage: true });
    expect(pods.find((p) => p.name === 'done')).toMatchObject({ phase: 'Succeeded', deletionTimestamp: expect.stringMatching(/^2026-01-01T00:00:00(\.000)?Z$/) });
    expect(await podNames(harness, 'n3')).toEqual([]);
  });

  it('lists the Namespaces with their labels', async () => {
    harness = await start();
    await apply(harness, namespace('team-a', { tier: 'gold' }));
    expect(await harness.workload.listNamespaces(harness.cluster)).toEqual(expect.arrayContaining([{ name: 'team-a', labels: { tier: 'gold', 'kubernetes.io/metadata.name': 'team-a' } }]));
  });

  it('says whether a DaemonSet exists', async () => {
    harness = await start();
    await apply(harness, { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'kube-system' }, spec: {} });
    expect(await harness.workload.daemonSetExists(harness.cluster, 'kube-system', 'agent')).toBe(true);
    expect(await harness.workload.daemonSetExists(harness.cluster, 'kube-system', 'gone')).toBe(false);
  });

  it('cordons a Node', async () => {
    harness = await start();
    const providerID = await harness.addNode('n1', true);
    expect((await harness.workload.findNodeByProviderID(harness.cluster, providerID))?.unschedulable).toBeUndefined();
    await harness.workload.patchNode(harness.cluster, 'n1', { labels: {}, annotations: {}, unschedulable: true });
    expect(await harness.workload.findNodeByProviderID(harness.cluster, providerID)).toMatchObject({ name: 'n1', unschedulable: true });
  });

  it('evicts a Pod no budget covers: it leaves the Node, and evicting it again finds nothing', async () => {
    harness = await start();
    await apply(harness, pod('default', 'lonely'), pod('default', 'other'));
    expect(await harness.workload.evictPod(harness.cluster, { namespace: 'default', name: 'lonely' }, { gracePeriodSeconds: 1 })).toEqual({ result: 'Evicted' });
    expect(await podNames(harness)).toEqual(['default/other']);
    expect(await harness.workload.evictPod(harness.cluster, { namespace: 'default', name: 'lonely' }, {})).toEqual({ result: 'NotFound' });
  });

  it.for([
    ['refuses an eviction a budget has no room for, with its cause', 2, { result: 'Refused', reason: 'DisruptionBudget', message: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently" }, ['default/web-1', 'default/web-2']],
    ['evicts when the budget has room', 1, { result: 'Evicted' }, ['default/web-2']],
  ] as const)('%s', async ([, minAvailable, outcome, left], context) => {
    harness = await start();
    await apply(harness, pod('default', 'web-1', { labels: { app: 'web' } }), pod('default', 'web-2', { labels: { app: 'web' } }), budget(minAvailable, 2));
    context.expect(await harness.workload.evictPod(harness.cluster, { namespace: 'default', name: 'web-1' }, {})).toEqual(outcome);
    context.expect(await podNames(harness)).toEqual(left);
  });

  it('evicts a terminating Pod whatever its budget says', async () => {
    harness = await start();
    await apply(harness, pod('default', 'web-1', { labels: { app: 'web' }, deleting: true }), pod('default', 'web-2', { labels: { app: 'web' } }), budget(2, 1));
    expect(await harness.workload.evictPod(harness.cluster, { namespace: 'default', name: 'web-1' }, {})).toEqual({ result: 'Evicted' });
  });

  it('refuses an eviction in a terminating namespace', async () => {
    harness = await start();
    await apply(harness, namespace('leaving', {}, true), pod('leaving', 'p'));
    expect(await harness.workload.evictPod(harness.cluster, { namespace: 'leaving', name: 'p' }, {})).toEqual({
      result: 'Refused',
      reason: 'NamespaceTerminating',
      message: 'pods "p" is forbidden: unable to create new content in namespace leaving because it is being terminated',
    });
    expect(await podNames(harness)).toEqual(['leaving/p']);
  });

  it('lists the VolumeAttachments attached to the Node, and the PersistentVolumes', async () => {
    harness = await start();
    const attachment = (name: string, node: string, attached: boolean, pv?: string): WorkloadObject => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: node, source: pv ? { persistentVolumeName: pv } : { inlineVolumeSpec: {} } },
      status: { attached },
    });
    await apply(
      harness,
      { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-data' }, spec: { csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' }, claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' } } },
      { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-nfs' }, spec: { nfs: { server: 'nfs', path: '/' } } },
      attachment('va-1', 'n1', true, 'pv-data'),
      attachment('va-2', 'n1', false, 'pv-other'),
      attachment('va-3', 'n2', true, 'pv-else'),
      attachment('va-4', 'n1', true),
    );
    expect(await harness.workload.listVolumeAttachments(harness.cluster, 'n1')).toEqual([{ name: 'va-1', persistentVolumeName: 'pv-data' }, { name: 'va-4' }]);
    expect(await harness.workload.listPersistentVolumes(harness.cluster)).toEqual([
      { name: 'pv-data', csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' }, claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data' } },
      { name: 'pv-nfs' },
    ]);
  });

  it("reads the claims a Pod's volumes name", async () => {
    harness = await start();
    const withClaims = pod('default', 'db');
    withClaims.spec = { nodeName: 'n1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }, { name: 'cfg', configMap: { name: 'c' } }] };
    await apply(harness, withClaims);
    expect((await harness.workload.listPodsOnNode(harness.cluster, 'n1'))[0]?.persistentVolumeClaims).toEqual(['data-db-0']);
  });
});
