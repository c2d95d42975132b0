/**
 * One harness per WorkloadCluster implementation, so the conformance suite runs the same cases on
 * each: the in-memory one (Nodes are InMemoryMachines' simulated nodes) and the client-node one
 * against the fake workload API over HTTPS (Nodes registered as kubelet would).
 */
import { KubeconfigWorkloadCluster } from '../../shared/adapters/kubernetes/kubeconfig-workload-cluster.js';
import { isRecord } from '../../shared/contracts/json.js';
import type { WorkloadCluster, WorkloadClusterRef, WorkloadObject } from '../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { simulatedMemberId } from '../../shared/workload-cluster/in-memory-etcd.js';
import { InMemoryWorkloadCluster, inMemoryProviderID } from '../../shared/workload-cluster/in-memory-workload-cluster.js';
import { type FakeWorkloadApi, startFakeWorkloadApi } from './fake-workload-api.js';

export interface WorkloadClusterHarness {
  workload: WorkloadCluster;
  cluster: WorkloadClusterRef;
  /** Makes a Node appear for a new providerID (as the provider's kubelet would) and returns that providerID. */
  addNode(name: string, ready: boolean): Promise<string>;
  /** A Node that runs a kube-apiserver static Pod: its providerID and its serving certificate's NotAfter. */
  addControlPlaneNode(name: string): Promise<{ providerID: string; certificateNotAfter: string }>;
  /** A control-plane Node that runs a member of the cluster's etcd: its providerID. */
  addEtcdNode(name: string): Promise<string>;
  /** etcd raises `alarm` (NOSPACE, CORRUPT) on the member of the etcd Node `name`. */
  raiseEtcdAlarm(name: string, alarm: string): Promise<void>;
  /** The member of the etcd Node `name` is a learner. */
  makeEtcdLearner(name: string): Promise<void>;
  /** The object as the workload cluster now holds it. */
  applied(object: Pick<WorkloadObject, 'apiVersion' | 'kind' | 'metadata'>): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

const CLUSTER: WorkloadClusterRef = { namespace: 'default', name: 'conformance' };

export async function inMemoryHarness(): Promise<WorkloadClusterHarness> {
  const store = new MemoryObjectStore();
  const workload = new InMemoryWorkloadCluster(store);
  const addSimulatedNode = async (name: string, ready: boolean, extra: Record<string, unknown> = {}) => {
    const providerID = inMemoryProviderID(CLUSTER.namespace, name);
    const created = await store.create({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
      kind: 'InMemoryMachine',
      metadata: { name, namespace: CLUSTER.namespace, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER.name } },
      spec: { providerID },
    });
    const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }];
    await store.updateStatus({ ...created, status: { simulatedNode: { name, ready, conditions, info: { kubeletVersion: 'v1.33.0' }, ...extra } } });
    return providerID;
  };
  return {
    workload,
    cluster: CLUSTER,
    addNode: (name, ready) => addSimulatedNode(name, ready),
    async addControlPlaneNode(name) {
      const certificateNotAfter = '2027-12-03T09:00:00Z';
      return { providerID: await addSimulatedNode(name, true, { apiServerCertificateNotAfter: certificateNotAfter }), certificateNotAfter };
    },
    // The in-memory provider's kubeadm starts an etcd member with each control-plane Node.
    addEtcdNode: (name) => addSimulatedNode(name, true, { apiServerCertificateNotAfter: '2027-12-03T09:00:00Z' }),
    async raiseEtcdAlarm(name, alarm) {
      workload.objects.etcd.raiseAlarm(CLUSTER, { memberId: simulatedMemberId(inMemoryProviderID(CLUSTER.namespace, name)), alarm });
    },
    async makeEtcdLearner(name) {
      workload.objects.etcd.makeLearner(CLUSTER, simulatedMemberId(inMemoryProviderID(CLUSTER.namespace, name)));
    },
    async applied(object) {
      return workload.objects
        .objectsOf(CLUSTER)
        .find((o) => o.apiVersion === object.apiVersion && o.kind === object.kind && o.metadata.name === object.metadata.name && o.metadata.namespace === object.metadata.namespace);
    },
    close: async () => {},
  };
}

/** Plural resource names of the kinds the suite applies. */
const PLURALS: Record<string, string> = { ConfigMap: 'configmaps', Secret: 'secrets', Deployment: 'deployments', DaemonSet: 'daemonsets', ClusterRole: 'clusterroles' };

export interface KubeconfigHarness extends WorkloadClusterHarness {
  api: FakeWorkloadApi;
  store: MemoryObjectStore;
  /** Replaces the kubeconfig Secret's value (a rotation). */
  putKubeconfig(kubeconfig: string): Promise<void>;
}

export async function kubeconfigHarness(options: { pageSize?: number; withSecret?: boolean; bearerToken?: boolean } = {}): Promise<KubeconfigHarness> {
  const api = await startFakeWorkloadApi();
  const store = new MemoryObjectStore();
  const workload = new KubeconfigWorkloadCluster({ store, ...(options.pageSize ? { pageSize: options.pageSize } : {}) });
  const secretKey = { group: '', kind: 'Secret', namespace: CLUSTER.namespace, name: `${CLUSTER.name}-kubeconfig` };
  const putKubeconfig = async (kubeconfig: string) => {
    const data = { value: Buffer.from(kubeconfig).toString('base64') };
    const current = await store.get(secretKey);
    if (current) await store.update({ ...current, data });
    else await store.create({ apiVersion: 'v1', kind: 'Secret', type: 'cluster.x-k8s.io/secret', metadata: { name: secretKey.name, namespace: secretKey.namespace }, data });
  };
  if (options.withSecret !== false) await putKubeconfig(options.bearerToken ? api.tokenKubeconfig : api.kubeconfig);
  let instance = 0;
  return {
    api,
    store,
    workload,
    cluster: CLUSTER,
    putKubeconfig,
    async addNode(name, ready) {
      instance += 1;
      const providerID = `aws:///us-east-1a/i-${String(instance).padStart(17, '0')}`;
      api.putNode({ name, providerID, ready });
      return providerID;
    },
    async addControlPlaneNode(name) {
      instance += 1;
      const providerID = `aws:///us-east-1a/i-${String(instance).padStart(17, '0')}`;
      api.putNode({ name, providerID, ready: true });
      return { providerID, certificateNotAfter: await api.putKubeApiServer(name, 365) };
    },
    async addEtcdNode(name) {
      instance += 1;
      const providerID = `aws:///us-east-1a/i-${String(instance).padStart(17, '0')}`;
      api.putNode({ name, providerID, ready: true });
      await api.putEtcdMember(name);
      const etcdSecret = { apiVersion: 'v1', kind: 'Secret', type: 'cluster.x-k8s.io/secret', metadata: { name: `${CLUSTER.name}-etcd`, namespace: CLUSTER.namespace } };
      const data = { 'tls.crt': Buffer.from(api.etcdCa.certPem).toString('base64'), 'tls.key': Buffer.from(api.etcdCa.keyPem).toString('base64') };
      if (!(await store.get({ group: '', kind: 'Secret', namespace: CLUSTER.namespace, name: etcdSecret.metadata.name }))) await store.create({ ...etcdSecret, data });
      return providerID;
    },
    async raiseEtcdAlarm(name, alarm) {
      api.raiseEtcdAlarm(name, alarm);
    },
    async makeEtcdLearner(name) {
      api.makeEtcdLearner(name);
    },
    async applied(object) {
      const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : [undefined, object.apiVersion];
      const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
      const namespace = object.metadata.namespace ? `/namespaces/${object.metadata.namespace}` : '';
      const found = api.get(`${base}${namespace}/${PLURALS[object.kind] ?? object.kind.toLowerCase()}/${object.metadata.name}`);
      return isRecord(found) ? found : undefined;
    },
    close: () => api.close(),
  };
}

/** Every WorkloadCluster implementation the conformance suites run on. */
export const WORKLOAD_CLUSTER_IMPLEMENTATIONS: ReadonlyArray<[string, () => Promise<WorkloadClusterHarness>]> = [
  ['in-memory', () => inMemoryHarness()],
  ['client-node over HTTPS', () => kubeconfigHarness()],
  ['client-node over HTTPS, one item per page', () => kubeconfigHarness({ pageSize: 1 })],
  ['client-node over HTTPS with a bearer token', () => kubeconfigHarness({ bearerToken: true })],
];
