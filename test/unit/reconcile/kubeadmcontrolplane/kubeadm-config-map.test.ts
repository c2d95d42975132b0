import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { TransientError } from '../../../../shared/errors/index.js';
import { toKubeadmYaml } from '../../../../shared/kubeadm/index.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { type ClusterConfigurationInput, desiredClusterConfiguration } from '../../../../functions/reconcile/kubeadm/controlplane/kubeadm-config-map.js';
import { updateControlPlane } from '../../../../functions/reconcile/kubeadm/controlplane/update-control-plane.js';
import type { MachineFacts } from '../../../../functions/reconcile/kubeadm/controlplane/machine-facts.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

/** What kubeadm v1.30 init stores (kubeadm.k8s.io/v1beta3). */
const V1BETA3 = {
  apiVersion: 'kubeadm.k8s.io/v1beta3',
  kind: 'ClusterConfiguration',
  apiServer: { certSANs: ['10.0.0.10'], extraArgs: { 'cloud-provider': 'external', 'audit-log-maxage': '30' }, timeoutForControlPlane: '4m0s' },
  certificatesDir: '/etc/kubernetes/pki',
  clusterName: 'c1',
  controlPlaneEndpoint: 'c1-apiserver.example.com:6443',
  controllerManager: { extraArgs: { 'cloud-provider': 'external' } },
  dns: {},
  etcd: { local: { dataDir: '/var/lib/etcd', extraArgs: { 'quota-backend-bytes': '8589934592' } } },
  imageRepository: 'registry.k8s.io',
  kubernetesVersion: 'v1.30.6',
  networking: { dnsDomain: 'cluster.local', podSubnet: '192.168.0.0/16', serviceSubnet: '10.96.0.0/12' },
  scheduler: {},
};

/** What kubeadm v1.31 init stores (kubeadm.k8s.io/v1beta4). */
const V1BETA4 = {
  apiVersion: 'kubeadm.k8s.io/v1beta4',
  kind: 'ClusterConfiguration',
  apiServer: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] },
  caCertificateValidityPeriod: '87600h0m0s',
  certificateValidityPeriod: '8760h0m0s',
  clusterName: 'c1',
  controlPlaneEndpoint: 'c1-apiserver.example.com:6443',
  controllerManager: {},
  dns: {},
  encryptionAlgorithm: 'RSA-2048',
  etcd: { local: { dataDir: '/var/lib/etcd' } },
  featureGates: { ControlPlaneKubeletLocalMode: true },
  imageRepository: 'registry.k8s.io',
  kubernetesVersion: 'v1.31.2',
  networking: { dnsDomain: 'cluster.local', serviceSubnet: '10.96.0.0/12' },
  proxy: {},
  scheduler: {},
};

function input(version: string, clusterConfiguration?: unknown, managesEtcd = true): ClusterConfigurationInput {
  return { version, clusterConfiguration, clusterName: 'c1', managesEtcd };
}

describe('the ClusterConfiguration kubeadm-config should hold (UpdateClusterConfiguration)', () => {
  it.for([
    ['no clusterConfiguration in the spec: only the version changes', V1BETA4, input('v1.32.0'), { ...V1BETA4, kubernetesVersion: 'v1.32.0' }],
    [
      'v1.30 → v1.31 moves the document to v1beta4: extraArgs as name/value lists, the API server timeout gone',
      V1BETA3,
      input('v1.31.2'),
      {
        ...V1BETA3,
        apiVersion: 'kubeadm.k8s.io/v1beta4',
        kubernetesVersion: 'v1.31.2',
        apiServer: { certSANs: ['10.0.0.10'], extraArgs: [{ name: 'audit-log-maxage', value: '30' }, { name: 'cloud-provider', value: 'external' }] },
        controllerManager: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] },
        etcd: { local: { dataDir: '/var/lib/etcd', extraArgs: [{ name: 'quota-backend-bytes', value: '8589934592' }] } },
      },
    ],
    [
      'a clusterConfiguration: its components, feature gates (with the version’s default), local etcd, encryption and validity replace the stored ones; the rest stays',
      V1BETA4,
      input('v1.32.0', {
        apiServer: { extraArgs: [{ name: 'cloud-provider', value: 'external' }, { name: 'profiling', value: 'false' }], certSANs: ['api.example.com'] },
        scheduler: { extraArgs: [{ name: 'bind-address', value: '0.0.0.0' }] },
        etcd: { local: { dataDir: '/var/lib/etcd-data' } },
        featureGates: { EtcdLearnerMode: true },
        encryptionAlgorithm: 'ECDSA-P256',
        certificateValidityPeriodDays: 90,
      }),
      {
        ...V1BETA4,
        kubernetesVersion: 'v1.32.0',
        apiServer: { extraArgs: [{ name: 'cloud-provider', value: 'external' }, { name: 'profiling', value: 'false' }], certSANs: ['api.example.com'] },
        controllerManager: {},
        scheduler: { extraArgs: [{ name: 'bind-address', value: '0.0.0.0' }] },
        etcd: { local: { dataDir: '/var/lib/etcd-data' } },
        featureGates: { EtcdLearnerMode: true, ControlPlaneKubeletLocalMode: true },
        encryptionAlgorithm: 'ECDSA-P256',
        certificateValidityPeriod: '2160h0m0s',
      },
    ],
    [
      'the spec’s imageRepository replaces the stored one; v1.36 defaults no feature gate, so the stored ones go',
      V1BETA4,
      input('v1.36.0', { imageRepository: 'mirror.example.com/k8s' }),
      { ...V1BETA4, kubernetesVersion: 'v1.36.0', imageRepository: 'mirror.example.com/k8s', apiServer: {}, controllerManager: {}, scheduler: {}, etcd: { local: {} }, featureGates: undefined, encryptionAlgorithm: undefined, certificateValidityPeriod: undefined },
    ],
    [
      'external etcd: the spec’s endpoints, no local etcd',
      { ...V1BETA4, etcd: { external: { endpoints: ['https://old:2379'], caFile: 'a', certFile: 'b', keyFile: 'c' } } },
      input('v1.32.0', { etcd: { external: { endpoints: ['https://etcd:2379'], caFile: '/ca.crt', certFile: '/c.crt', keyFile: '/c.key' } } }, false),
      {
        ...V1BETA4,
        kubernetesVersion: 'v1.32.0',
        apiServer: {},
        controllerManager: {},
        scheduler: {},
        etcd: { external: { endpoints: ['https://etcd:2379'], caFile: '/ca.crt', certFile: '/c.crt', keyFile: '/c.key' } },
        encryptionAlgorithm: undefined,
        certificateValidityPeriod: undefined,
      },
    ],
  ] as const)('%s', ([, current, given, expected]) => {
    const desired = desiredClusterConfiguration(structuredClone(current), given);
    expect(JSON.parse(JSON.stringify(desired))).toEqual(JSON.parse(JSON.stringify(expected)));
    // Written and read back, it is what it should be: no second write.
    const reread = parse(toKubeadmYaml(desired));
    expect(JSON.parse(JSON.stringify(desiredClusterConfiguration(reread, given)))).toEqual(reread);
  });
});

function facts(upToDate: boolean[]): MachineFacts[] {
  return upToDate.map((u, i) => ({ name: `m${i}`, creationTimestamp: '', deleting: false, ready: true, upToDate: u, outdatedReasons: [], deleteAnnotated: false, hasNode: true }));
}

async function sync(c: { upToDate: boolean[]; data?: Record<string, string>; initialized?: boolean; version?: string; refused?: boolean }) {
  const calls: string[] = [];
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      applyObjects: async (_cluster, objects, { mode }) => {
        calls.push(`${mode} ${objects.map((o) => `${o.kind} ${o.metadata.name}`).join(', ')}`);
        return c.refused ? objects.map((o) => ({ object: { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name }, message: `${o.metadata.name}: 403 forbidden` })) : [];
      },
      readConfigMap: async (_cluster, ref) => {
        calls.push(`read ${ref.namespace}/${ref.name}`);
        return c.data ? { data: c.data, resourceVersion: '7' } : undefined;
      },
      writeConfigMapData: async (_cluster, ref, data, rv) => {
        calls.push(`write ${ref.namespace}/${ref.name} at ${rv}: ${parse(data.ClusterConfiguration ?? '').kubernetesVersion}`);
      },
    }),
  };
  const kcp: StoredObject = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default' },
    spec: { version: c.version ?? 'v1.32.0', replicas: 3, kubeadmConfigSpec: {} },
  });
  const scope = { ...createKcpScope(ctx, kcp), clusterName: 'c1', initialized: c.initialized ?? true, facts: facts(c.upToDate) };
  const result = await updateControlPlane(scope).catch((error: unknown) => error);
  return { calls, result };
}

const PERMISSIONS = 'CreateOnly ClusterRoleBinding kubeadm:cluster-admins, ClusterRoleBinding kubeadm:apiserver-kubelet-client';

describe('the workload cluster made ready for a rollout’s next Machine (updateControlPlane)', () => {
  it.for([
    ['no Machine needs a rollout: nothing asked', { upToDate: [true, true] }, []],
    ['not initialized: nothing asked', { upToDate: [false], initialized: false }, []],
    [
      'a rollout: kubeadm’s ClusterRoleBindings created when absent, kubeadm-config written at the version read',
      { upToDate: [false, true], data: { ClusterConfiguration: toKubeadmYaml(V1BETA4) } },
      [PERMISSIONS, 'read kube-system/kubeadm-config', 'write kube-system/kubeadm-config at 7: v1.32.0'],
    ],
    ['to v1.38: kubeadm upgrade has nothing more to add', { upToDate: [false], version: 'v1.38.0', data: { ClusterConfiguration: toKubeadmYaml(V1BETA4) } }, ['read kube-system/kubeadm-config', 'write kube-system/kubeadm-config at 7: v1.38.0']],
    ['already as it should be: not written', { upToDate: [false], data: { ClusterConfiguration: toKubeadmYaml({ ...V1BETA4, kubernetesVersion: 'v1.32.0' }) } }, [PERMISSIONS, 'read kube-system/kubeadm-config']],
    ['no ConfigMap (a simulated cluster): nothing to update', { upToDate: [false] }, [PERMISSIONS, 'read kube-system/kubeadm-config']],
  ] as const)('%s', async ([, c, calls]) => {
    const outcome = await sync({ ...c, upToDate: [...c.upToDate] });
    expect(outcome.calls).toEqual(calls);
    expect(outcome.result).toBeUndefined();
  });

  it.for([
    ['no ClusterConfiguration key', {}, /unable to find "ClusterConfiguration" in the kubeadm-config ConfigMap/],
    ['not YAML', { ClusterConfiguration: 'a: [' }, /unable to decode "ClusterConfiguration"/],
    ['not a mapping', { ClusterConfiguration: '- a' }, /not a mapping/],
  ] as const)('a ConfigMap with %s: a transient error, nothing written', async ([, data, message]) => {
    const outcome = await sync({ upToDate: [false], data: { ...data } });
    expect(outcome.result).toBeInstanceOf(TransientError);
    expect(String(outcome.result)).toMatch(message);
    expect(outcome.calls).toEqual([PERMISSIONS, 'read kube-system/kubeadm-config']);
  });

  it('ClusterRoleBindings the workload cluster refuses: a transient error, kubeadm-config not touched', async () => {
    const outcome = await sync({ upToDate: [false], refused: true, data: { ClusterConfiguration: toKubeadmYaml(V1BETA4) } });
    expect(outcome.result).toBeInstanceOf(TransientError);
    expect(String(outcome.result)).toMatch(/kubeadm:cluster-admins: 403 forbidden/);
    expect(outcome.calls).toEqual([PERMISSIONS]);
  });
});
