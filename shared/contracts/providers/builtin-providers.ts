/**
 * The built-in providers as data: which kinds each serves and which contract each kind follows.
 * The functions layer pairs each with its reconcilers (functions/reconcile/engine/providers/builtin.ts),
 * exactly as an external provider would register.
 */

import { BUILTIN_KINDS, type KindInfo } from '../kinds.js';
import type { ProviderKindContract, ProviderType } from '../provider-contract.js';
import { AWS_PROVIDER } from './aws/aws-provider.js';

export interface ProviderDescriptor {
  name: string;
  type: ProviderType;
  kinds: KindInfo[];
  contracts: ProviderKindContract[];
}

export const CORE_GROUP = 'cluster.x-k8s.io';
export const BOOTSTRAP_GROUP = 'bootstrap.cluster.x-k8s.io';
export const CONTROL_PLANE_GROUP = 'controlplane.cluster.x-k8s.io';
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';

function kindsOf(group: string, names: readonly string[]): KindInfo[] {
  return BUILTIN_KINDS.filter((k) => k.group === group && names.includes(k.kind));
}

export const CORE_PROVIDER: ProviderDescriptor = {
  name: 'cluster-api',
  type: 'CoreProvider',
  kinds: [
    ...kindsOf('', ['Secret', 'ConfigMap', 'Namespace']),
    ...kindsOf(CORE_GROUP, ['Cluster', 'ClusterClass', 'Machine', 'MachineSet', 'MachineDeployment', 'MachineHealthCheck']),
    // Cluster API's core manager runs the ExtensionConfig controller (Runtime SDK).
    ...kindsOf('runtime.cluster.x-k8s.io', ['ExtensionConfig']),
    // …and the ClusterResourceSet controller (addons).
    ...kindsOf('addons.cluster.x-k8s.io', ['ClusterResourceSet', 'ClusterResourceSetBinding']),
  ],
  contracts: [],
};

export const KUBEADM_BOOTSTRAP_PROVIDER: ProviderDescriptor = {
  name: 'kubeadm',
  type: 'BootstrapProvider',
  kinds: kindsOf(BOOTSTRAP_GROUP, ['KubeadmConfig', 'KubeadmConfigTemplate']),
  contracts: [
    {
      group: BOOTSTRAP_GROUP,
      kind: 'KubeadmConfig',
      role: 'BootstrapConfig',
      contractVersion: 'v1beta2',
      templateKind: 'KubeadmConfigTemplate',
    },
  ],
};

export const KUBEADM_CONTROL_PLANE_PROVIDER: ProviderDescriptor = {
  name: 'kubeadm',
  type: 'ControlPlaneProvider',
  kinds: kindsOf(CONTROL_PLANE_GROUP, ['KubeadmControlPlane', 'KubeadmControlPlaneTemplate']),
  contracts: [
    {
      group: CONTROL_PLANE_GROUP,
      kind: 'KubeadmControlPlane',
      role: 'ControlPlane',
      contractVersion: 'v1beta2',
      templateKind: 'KubeadmControlPlaneTemplate',
    },
  ],
};

export const IN_MEMORY_PROVIDER: ProviderDescriptor = {
  name: 'in-memory',
  type: 'InfrastructureProvider',
  kinds: kindsOf(INFRASTRUCTURE_GROUP, [
    'InMemoryCluster',
    'InMemoryClusterTemplate',
    'InMemoryMachine',
    'InMemoryMachineTemplate',
  ]),
  contracts: [
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'InMemoryCluster',
      role: 'InfrastructureCluster',
      contractVersion: 'v1beta2',
      templateKind: 'InMemoryClusterTemplate',
    },
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'InMemoryMachine',
      role: 'InfrastructureMachine',
      contractVersion: 'v1beta2',
      templateKind: 'InMemoryMachineTemplate',
    },
  ],
};

/** Docker kinds are accepted (CAPI samples apply unchanged) but no capless reconciler serves them. */
export const DOCKER_PROVIDER: ProviderDescriptor = {
  name: 'docker',
  type: 'InfrastructureProvider',
  kinds: kindsOf(INFRASTRUCTURE_GROUP, ['DockerCluster', 'DockerClusterTemplate', 'DockerMachine', 'DockerMachineTemplate']),
  contracts: [
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'DockerCluster',
      role: 'InfrastructureCluster',
      contractVersion: 'v1beta2',
      templateKind: 'DockerClusterTemplate',
    },
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'DockerMachine',
      role: 'InfrastructureMachine',
      contractVersion: 'v1beta2',
      templateKind: 'DockerMachineTemplate',
    },
  ],
};

export const IPAM_GROUP = 'ipam.cluster.x-k8s.io';

/**
 * The in-cluster IPAM provider (kubernetes-sigs/cluster-api-ipam-provider-in-cluster): its pools,
 * and the IPAddressClaims that name them (the core's claim kind, reconciled by this provider).
 */
export const IN_CLUSTER_IPAM_PROVIDER: ProviderDescriptor = {
  name: 'in-cluster',
  type: 'IPAMProvider',
  kinds: kindsOf(IPAM_GROUP, ['InClusterIPPool', 'GlobalInClusterIPPool']),
  contracts: [
    { group: IPAM_GROUP, kind: 'InClusterIPPool', role: 'IPAMPool', contractVersion: 'v1beta2' },
    { group: IPAM_GROUP, kind: 'GlobalInClusterIPPool', role: 'IPAMPool', contractVersion: 'v1beta2' },
  ],
};

/**
 * Cluster API's development provider kinds (Dev*): `backend.inMemory` is simulated by capless's
 * in-memory provider; `backend.docker` waits with ProviderNotInstalled (no Docker here).
 */
export const DEV_PROVIDER: ProviderDescriptor = {
  name: 'dev',
  type: 'InfrastructureProvider',
  kinds: kindsOf(INFRASTRUCTURE_GROUP, ['DevCluster', 'DevClusterTemplate', 'DevMachine', 'DevMachineTemplate', 'DevMachinePoolTemplate']),
  contracts: [
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'DevCluster',
      role: 'InfrastructureCluster',
      contractVersion: 'v1beta2',
      templateKind: 'DevClusterTemplate',
    },
    {
      group: INFRASTRUCTURE_GROUP,
      kind: 'DevMachine',
      role: 'InfrastructureMachine',
      contractVersion: 'v1beta2',
      templateKind: 'DevMachineTemplate',
    },
  ],
};

export const BUILTIN_PROVIDERS: readonly ProviderDescriptor[] = [
  CORE_PROVIDER,
  KUBEADM_BOOTSTRAP_PROVIDER,
  KUBEADM_CONTROL_PLANE_PROVIDER,
  IN_MEMORY_PROVIDER,
  DOCKER_PROVIDER,
  IN_CLUSTER_IPAM_PROVIDER,
  DEV_PROVIDER,
  AWS_PROVIDER,
];
