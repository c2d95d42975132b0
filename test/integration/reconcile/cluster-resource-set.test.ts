/**
 * ClusterResourceSet end to end in the embedded control plane (`capless up`'s composition, default
 * WorkloadCluster wiring): objects go in through the management API; the Cluster's workload API is
 * the fake kube-apiserver over HTTPS, reached with the `<cluster>-kubeconfig` Secret; the
 * resources' objects must appear there, the binding must record them, and a changed ConfigMap must
 * be re-applied under the Reconcile strategy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { valueAt } from '../../../shared/contracts/json.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { eventually } from '../../support/eventually.js';
import { type FakeWorkloadApi, startFakeWorkloadApi } from '../../support/fake-workload-api.js';
import { RestClient } from '../../support/rest-client.js';

const NS = 'default';
const CLUSTER = 'crs-target';
const ADDONS = 'addons.cluster.x-k8s.io';
const b64 = (text: string) => Buffer.from(text).toString('base64');

const calico = (version: string) =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: calico-config, namespace: kube-system}',
    `data: {version: "${version}"}`,
    '---',
    'apiVersion: apps/v1',
    'kind: DaemonSet',
    'metadata: {name: calico-node, namespace: kube-system}',
    'spec: {selector: {matchLabels: {k8s-app: calico-node}}, template: {metadata: {labels: {k8s-app: calico-node}}, spec: {containers: [{name: calico-node, image: calico/node}]}}}',
    '---',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata: {name: calico-node}',
    'rules: []',
  ].join('\n');

let plane: ControlPlane;
let api: RestClient;
let workload: FakeWorkloadApi;
let dataDir: string;

beforeAll(async () => {
  workload = await startFakeWorkloadApi();
  dataDir = await mkdtemp(join(tmpdir(), 'capless-crs-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600, store: new MemoryObjectStore() });
  api = new RestClient(plane.url, plane.token);
});

afterAll(async () => {
  await plane?.stop();
  await workload?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('ClusterResourceSet through the embedded control plane', () => {
  it('applies its ConfigMap and Secret resources to the workload API over HTTPS, records them, and re-applies a changed ConfigMap (Reconcile)', async () => {
    await api.mustCreate({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'cluster.x-k8s.io/secret',
      metadata: { name: `${CLUSTER}-kubeconfig`, namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER } },
      data: { value: b64(workload.kubeconfig) },
    });
    await api.mustCreate({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: CLUSTER, namespace: NS, labels: { cni: 'calico' } },
      spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerCluster', name: CLUSTER } },
    });
    // The control plane's initialization is what a control-plane provider reports; none runs here, so the test says it (sticky in the Cluster's status).
    await eventually('the Cluster to say its control plane is initialized', async () => {
      const cluster = await plane.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: CLUSTER });
      if (!cluster) return undefined;
      if (valueAt(cluster.status, 'initialization', 'controlPlaneInitialized') === true) return true;
      await plane.store.updateStatus({ ...cluster, status: { ...cluster.status, initialization: { controlPlaneInitialized: true } } }).catch(() => undefined);
      return undefined;
    });

    await api.mustCreate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'calico-addon', namespace: NS }, data: { 'calico.yaml': calico('v1') } });
    await api.mustCreate({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'addons.cluster.x-k8s.io/resource-set',
      metadata: { name: 'cloud-credentials', namespace: NS },
      data: { 'secret.yaml': b64('apiVersion: v1\nkind: Secret\nmetadata: {name: cloud-credentials, namespace: kube-system}\nstringData: {key: value}\n') },
    });
    // v1beta1, as CAPA's template writes it.
    await api.mustCreate({
      apiVersion: `${ADDONS}/v1beta1`,
      kind: 'ClusterResourceSet',
      metadata: { name: 'calico', namespace: NS },
      spec: { clusterSelector: { matchLabels: { cni: 'calico' } }, resources: [{ kind: 'ConfigMap', name: 'calico-addon' }, { kind: 'Secret', name: 'cloud-credentials' }], strategy: 'Reconcile' },
    });

    await eventually('the workload API to hold the resources\' objects', async (report) => {
      report(workload.paths());
      return workload.get('/api/v1/namespaces/kube-system/secrets/cloud-credentials') ? true : undefined;
    });
    expect(workload.paths()).toEqual([
      '/api/v1/namespaces/kube-system/configmaps/calico-config',
      '/api/v1/namespaces/kube-system/secrets/cloud-credentials',
      '/apis/apps/v1/namespaces/kube-system/daemonsets/calico-node',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/calico-node',
    ]);
    expect(workload.get('/api/v1/namespaces/kube-system/configmaps/calico-config')?.data).toEqual({ version: 'v1' });

    const binding = await eventually('the binding to record both resources as applied', async (report) => {
      const found = await api.get(`${ADDONS}/v1beta2`, 'ClusterResourceSetBinding', NS, CLUSTER);
      report(found?.spec);
      const resources = valueAt(found?.spec, 'bindings');
      return Array.isArray(resources) && JSON.stringify(resources).split('"applied":true').length === 3 ? found : undefined;
    });
    expect(binding.spec).toMatchObject({
      clusterName: CLUSTER,
      bindings: [
        {
          clusterResourceSetName: 'calico',
          resources: [
            { kind: 'ConfigMap', name: 'calico-addon', applied: true, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
            { kind: 'Secret', name: 'cloud-credentials', applied: true, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
          ],
        },
      ],
    });
    expect(binding.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ClusterResourceSet', name: 'calico' })]);
    const set = await eventually('ResourcesApplied to be True', async () => {
      const found = await api.get(`${ADDONS}/v1beta2`, 'ClusterResourceSet', NS, 'calico');
      return findCondition(conditionsOf(found?.status), 'ResourcesApplied')?.status === 'True' ? found : undefined;
    });
    expect(findCondition(conditionsOf(set.status), 'ResourcesApplied')?.reason).toBe('Applied');

    await api.mergePatch('v1', 'ConfigMap', NS, 'calico-addon', { data: { 'calico.yaml': calico('v2') } });
    await eventually('the changed ConfigMap to be re-applied', async (report) => {
      const data = workload.get('/api/v1/namespaces/kube-system/configmaps/calico-config')?.data;
      report(data);
      return valueAt(data, 'version') === 'v2' ? true : undefined;
    });
  });
});
