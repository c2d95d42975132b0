/**
 * A Machine on "real" infrastructure in the embedded control plane (default WorkloadCluster
 * wiring): its Node is looked up in the workload cluster's API over HTTPS, reached through the
 * `<cluster>-kubeconfig` Secret. Without the Secret the Machine says ConnectionDown; with it and no
 * Node, NodeDoesNotExist; once the test registers the Node (as kubelet would), the Machine is
 * Running with its nodeRef.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../functions/reconcile/engine/providers/builtin.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { stringAt, valueAt } from '../../../shared/contracts/json.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { eventually } from '../../support/eventually.js';
import { FAKE_CLOUD_GROUP, FAKE_CLOUD_PROVIDER } from '../../support/fake-cloud-provider.js';
import { type FakeWorkloadApi, startFakeWorkloadApi } from '../../support/fake-workload-api.js';
import { RestClient } from '../../support/rest-client.js';

const NS = 'default';
const CLUSTER = 'real';
const CORE = 'cluster.x-k8s.io/v1beta2';
const WAIT = { timeoutMs: 60_000, intervalMs: 200 };

let plane: ControlPlane;
let api: RestClient;
let workload: FakeWorkloadApi;
let dataDir: string;

beforeAll(async () => {
  workload = await startFakeWorkloadApi();
  dataDir = await mkdtemp(join(tmpdir(), 'capless-node-'));
  const providers = builtinProviderRegistry().registerProvider(FAKE_CLOUD_PROVIDER);
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600, store: new MemoryObjectStore(), providers });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  await workload?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The test provider's kinds are not in the default kind registry the RestClient builds paths from. */
async function fakeCloud(method: 'POST' | 'GET', plural: string, name: string, body?: unknown): Promise<unknown> {
  const path = `/apis/${FAKE_CLOUD_GROUP}/v1beta2/namespaces/${NS}/${plural}${method === 'GET' ? `/${name}` : ''}`;
  const response = await fetch(`${plane.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${plane.token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function nodeHealthy(report: (seen: unknown) => void) {
  const machine = await api.get(CORE, 'Machine', NS, 'm1');
  const condition = findCondition(conditionsOf(machine?.status), 'NodeHealthy');
  report({ condition, phase: stringAt(machine, 'status', 'phase') });
  return { machine, condition };
}

describe('a Machine finds its Node in the workload API over HTTPS', () => {
  it('waits for the kubeconfig, then for the Node, then is Running', async () => {
    await fakeCloud('POST', 'fakecloudclusters', CLUSTER, { apiVersion: `${FAKE_CLOUD_GROUP}/v1beta2`, kind: 'FakeCloudCluster', metadata: { name: CLUSTER, namespace: NS }, spec: {} });
    await api.mustCreate({ apiVersion: CORE, kind: 'Cluster', metadata: { name: CLUSTER, namespace: NS }, spec: { infrastructureRef: { apiGroup: FAKE_CLOUD_GROUP, kind: 'FakeCloudCluster', name: CLUSTER } } });
    await api.mustCreate({ apiVersion: 'v1', kind: 'Secret', type: 'cluster.x-k8s.io/secret', metadata: { name: 'm1-bootstrap', namespace: NS }, data: { value: Buffer.from('#!/bin/sh\n').toString('base64') } });
    await fakeCloud('POST', 'fakecloudmachines', 'm1', { apiVersion: `${FAKE_CLOUD_GROUP}/v1beta2`, kind: 'FakeCloudMachine', metadata: { name: 'm1', namespace: NS }, spec: {} });
    await api.mustCreate({
      apiVersion: CORE,
      kind: 'Machine',
      metadata: { name: 'm1', namespace: NS },
      spec: { clusterName: CLUSTER, version: 'v1.33.0', bootstrap: { dataSecretName: 'm1-bootstrap' }, infrastructureRef: { apiGroup: FAKE_CLOUD_GROUP, kind: 'FakeCloudMachine', name: 'm1' } },
    });

    const down = await eventually('NodeHealthy to say the connection is down (no kubeconfig yet)', async (report) => {
      const { condition } = await nodeHealthy(report);
      return condition?.reason === 'ConnectionDown' ? condition : undefined;
    }, WAIT);
    expect(down).toMatchObject({ status: 'Unknown', message: expect.stringContaining(`${CLUSTER}-kubeconfig`) });

    await api.mustCreate({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'cluster.x-k8s.io/secret',
      metadata: { name: `${CLUSTER}-kubeconfig`, namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER } },
      data: { value: Buffer.from(workload.kubeconfig).toString('base64') },
    });
    await eventually('NodeHealthy to say there is no Node yet', async (report) => {
      const { condition } = await nodeHealthy(report);
      return condition?.reason === 'NodeDoesNotExist' ? true : undefined;
    }, WAIT);

    const infra = await fakeCloud('GET', 'fakecloudmachines', 'm1');
    const providerID = stringAt(infra, 'spec', 'providerID') ?? '';
    expect(providerID).toMatch(/^aws:\/\/\/us-east-1a\/i-[0-9a-f]{17}$/);
    workload.putNode({ name: 'ip-10-0-0-1.ec2.internal', providerID, ready: true, kubeletVersion: 'v1.33.0' });

    const running = await eventually('the Machine to be Running with its nodeRef', async (report) => {
      const { machine } = await nodeHealthy(report);
      return stringAt(machine, 'status', 'phase') === 'Running' ? machine : undefined;
    }, WAIT);
    expect(stringAt(running, 'status', 'nodeRef', 'name')).toBe('ip-10-0-0-1.ec2.internal');
    expect(stringAt(running, 'status', 'nodeInfo', 'kubeletVersion')).toBe('v1.33.0');
    expect(findCondition(conditionsOf(running.status), 'NodeHealthy')).toMatchObject({ status: 'True', reason: 'NodeHealthy' });
    expect(workload.requests).toContain('GET /api/v1/nodes');
    // The Machine wrote its bookkeeping annotations onto its Node over HTTPS (a merge patch).
    expect(workload.requests).toContain('PATCH /api/v1/nodes/ip-10-0-0-1.ec2.internal');
    expect(valueAt(workload.get('/api/v1/nodes/ip-10-0-0-1.ec2.internal'), 'metadata', 'annotations')).toMatchObject({ 'cluster.x-k8s.io/machine': 'm1', 'cluster.x-k8s.io/cluster-name': CLUSTER });
  });

  it('a deleted Machine drains its Node over HTTPS: cordon, evictions, a disruption budget that holds it, then the Machine goes', async () => {
    const nodeName = 'ip-10-0-0-1.ec2.internal';
    const pods = '/api/v1/namespaces/default/pods';
    const web = (name: string, node: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true }] },
      spec: { nodeName: node },
      status: { phase: 'Running' },
    });
    workload.put(pods, web('web-1', nodeName));
    workload.put(pods, web('web-2', 'elsewhere'));
    workload.put(pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: NS }, spec: { nodeName }, status: { phase: 'Running' } });
    const budget = (allowed: number) => ({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: NS },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: allowed, desiredHealthy: 2, currentHealthy: 2 - allowed + 1, expectedPods: 2 },
    });
    workload.put('/apis/policy/v1/namespaces/default/poddisruptionbudgets', budget(0));
    // A control-plane Machine that stays: without one, Cluster API neither drains nor deletes a Node.
    await fakeCloud('POST', 'fakecloudmachines', 'cp', { apiVersion: `${FAKE_CLOUD_GROUP}/v1beta2`, kind: 'FakeCloudMachine', metadata: { name: 'cp', namespace: NS }, spec: {} });
    await api.mustCreate({
      apiVersion: CORE,
      kind: 'Machine',
      metadata: { name: 'cp', namespace: NS, labels: { 'cluster.x-k8s.io/control-plane': '' } },
      spec: { clusterName: CLUSTER, version: 'v1.33.0', bootstrap: { dataSecretName: 'm1-bootstrap' }, infrastructureRef: { apiGroup: FAKE_CLOUD_GROUP, kind: 'FakeCloudMachine', name: 'cp' } },
    });

    expect((await api.delete(CORE, 'Machine', NS, 'm1')).status).toBeLessThan(300);
    const held = await eventually('the Machine to wait on the disruption budget', async (report) => {
      const machine = await api.get(CORE, 'Machine', NS, 'm1');
      const condition = findCondition(conditionsOf(machine?.status), 'Deleting');
      report(condition);
      return condition?.reason === 'DrainingNode' && condition.message?.includes('disruption budget') ? condition : undefined;
    }, WAIT);
    expect(held.message).toContain("* Pod default/web-1: cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 3 currently");
    expect(valueAt(workload.get(`/api/v1/nodes/${nodeName}`), 'spec', 'unschedulable')).toBe(true);
    expect(workload.get(`${pods}/solo`)).toBeUndefined();
    expect(workload.requests).toEqual(expect.arrayContaining([`POST ${pods}/solo/eviction`, `POST ${pods}/web-1/eviction`, 'GET /api/v1/pods']));
    expect(workload.get(`${pods}/web-2`)).toBeDefined();

    // The budget gets room (another replica came up); a change to the Machine wakes it before its 20 s retry.
    workload.put('/apis/policy/v1/namespaces/default/poddisruptionbudgets', budget(1));
    let nudge = 0;
    await eventually('the drained Machine to go', async (report) => {
      const machine = await api.get(CORE, 'Machine', NS, 'm1');
      report(findCondition(conditionsOf(machine?.status), 'Deleting'));
      if (!machine) return true;
      nudge += 1;
      await api.mergePatch(CORE, 'Machine', NS, 'm1', { metadata: { annotations: { 'test.capless.dev/nudge': String(nudge) } } }).catch(() => undefined);
      return undefined;
    }, { timeoutMs: 60_000, intervalMs: 500 });
    expect(workload.get(`${pods}/web-1`)).toBeUndefined();
    expect(workload.get(`/api/v1/nodes/${nodeName}`)).toBeUndefined();
  });
});
