/** A CAPA-style KubeadmConfig spec and Cluster, and helpers to render the three roles. */
import type { ClusterCertificates, KeyAlgorithm } from '../../../shared/pki/index.js';
import { caCertHash, generateClusterCertificates } from '../../../shared/pki/index.js';
import {
  type CloudConfigInput,
  fillJoinDiscovery,
  type KubeadmClusterInput,
  type KubeadmConfigSpec,
  renderCloudConfig,
  renderInitDocuments,
  renderJoinDocument,
} from '../../../shared/kubeadm/index.js';

/** 65 characters, like an ELB name. */
export const ELB_HOST = 'demo-apiserver-1234567890abcdef.elb.eu-west-1.amazonaws.com'.padEnd(65, 'x');

export const cluster: KubeadmClusterInput = {
  name: 'demo',
  controlPlaneEndpoint: { host: ELB_HOST, port: 6443 },
  clusterNetwork: {
    pods: { cidrBlocks: ['192.168.0.0/16'] },
    services: { cidrBlocks: ['10.96.0.0/12'] },
    serviceDomain: 'cluster.local',
  },
};

export const spec: KubeadmConfigSpec = {
  clusterConfiguration: {
    apiServer: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] },
    controllerManager: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] },
  },
  initConfiguration: {
    nodeRegistration: {
      name: '{{ ds.meta_data.local_hostname }}',
      kubeletExtraArgs: [{ name: 'cloud-provider', value: 'external' }],
    },
    timeouts: { controlPlaneComponentHealthCheckSeconds: 300 },
  },
  joinConfiguration: {
    nodeRegistration: {
      name: '{{ ds.meta_data.local_hostname }}',
      kubeletExtraArgs: [{ name: 'cloud-provider', value: 'external' }],
    },
    timeouts: { tlsBootstrapSeconds: 120 },
  },
  files: [
    { path: '/etc/sysctl.d/99-kubernetes.conf', owner: 'root:root', permissions: '0644', content: 'net.ipv4.ip_forward = 1\n' },
    { path: '/etc/motd', content: 'managed by capless' },
  ],
  preKubeadmCommands: ['sysctl --system', 'echo "pre $(date)"'],
  postKubeadmCommands: ["echo 'done'"],
  verbosity: 5,
};

export interface RenderedRoles {
  certificates: ClusterCertificates;
  token: string;
  init: string;
  controlPlaneJoin: string;
  worker: string;
}

export async function renderRoles(kubernetesVersion: string, algorithm: KeyAlgorithm): Promise<RenderedRoles> {
  const { certificates } = await generateClusterCertificates(cluster.name, { algorithm, now: new Date() });
  const token = 'abcdef.0123456789abcdef';
  const common = {
    files: spec.files?.map((f) => ({ ...f, content: f.content ?? '' })),
    preKubeadmCommands: spec.preKubeadmCommands,
    postKubeadmCommands: spec.postKubeadmCommands,
    verbosity: spec.verbosity,
  };
  const init = renderCloudConfig({
    role: 'init',
    kubeadmDocuments: renderInitDocuments({ spec, cluster, kubernetesVersion }),
    certificates: { data: certificates },
    ...common,
  });
  const discovered = fillJoinDiscovery({
    joinConfiguration: spec.joinConfiguration,
    cluster,
    caCertPem: certificates.ca['tls.crt'],
    newToken: token,
  });
  const joinSpec = { ...spec, joinConfiguration: discovered.joinConfiguration };
  const cpInput: CloudConfigInput = {
    role: 'controlPlaneJoin',
    kubeadmDocuments: renderJoinDocument({ spec: joinSpec, role: 'controlPlane', kubernetesVersion }),
    certificates: { data: certificates },
    ...common,
  };
  const workerInput: CloudConfigInput = {
    role: 'worker',
    kubeadmDocuments: renderJoinDocument({ spec: joinSpec, role: 'worker', kubernetesVersion }),
    ...common,
  };
  return { certificates, token, init, controlPlaneJoin: renderCloudConfig(cpInput), worker: renderCloudConfig(workerInput) };
}

export { caCertHash };
