import type { KubeObject } from '../../shared/contracts/object.js';

export const CORE_V1BETA2 = 'cluster.x-k8s.io/v1beta2';
export const INFRA_V1BETA2 = 'infrastructure.cluster.x-k8s.io/v1beta2';
export const BOOTSTRAP_V1BETA2 = 'bootstrap.cluster.x-k8s.io/v1beta2';
export const CONTROL_PLANE_V1BETA2 = 'controlplane.cluster.x-k8s.io/v1beta2';

export interface LifecycleClusterOptions {
  namespace?: string;
  controlPlaneReplicas?: number;
  workerReplicas?: number;
  version?: string;
  /** InMemoryMachine startupSeconds (0: Running as soon as bootstrap data exists). */
  startupSeconds?: number;
}

/** `<cluster>-control-plane`, the KubeadmControlPlane's name. */
export const controlPlaneName = (cluster: string): string => `${cluster}-control-plane`;
/** `<cluster>-md-0`, the MachineDeployment's name. */
export const workerPoolName = (cluster: string): string => `${cluster}-md-0`;

/**
 * A whole cluster on the in-memory provider, as a user would apply it: Cluster, InMemoryCluster,
 * KubeadmControlPlane with its InMemoryMachineTemplate, and a MachineDeployment with its
 * KubeadmConfigTemplate and InMemoryMachineTemplate (examples/in-memory-cluster.yaml, parameterised).
 */
export function lifecycleCluster(name: string, options: LifecycleClusterOptions = {}): KubeObject[] {
  const namespace = options.namespace ?? 'default';
  const version = options.version ?? 'v1.32.0';
  const startupSeconds = options.startupSeconds ?? 0;
  const cp = controlPlaneName(name);
  const md = workerPoolName(name);
  const meta = (objectName: string) => ({ name: objectName, namespace });
  return [
    {
      apiVersion: CORE_V1BETA2,
      kind: 'Cluster',
      metadata: meta(name),
      spec: {
        clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] }, services: { cidrBlocks: ['10.128.0.0/12'] }, serviceDomain: 'cluster.local' },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name },
        controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: cp },
      },
    },
    { apiVersion: INFRA_V1BETA2, kind: 'InMemoryCluster', metadata: meta(name), spec: {} },
    { apiVersion: INFRA_V1BETA2, kind: 'InMemoryMachineTemplate', metadata: meta(cp), spec: { template: { spec: { startupSeconds } } } },
    {
      apiVersion: CONTROL_PLANE_V1BETA2,
      kind: 'KubeadmControlPlane',
      metadata: meta(cp),
      spec: {
        replicas: options.controlPlaneReplicas ?? 3,
        version,
        machineTemplate: {
          spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: cp } },
        },
        kubeadmConfigSpec: {
          clusterConfiguration: { apiServer: { certSANs: ['localhost', '127.0.0.1'] } },
          initConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'eviction-hard', value: 'nodefs.available<0%' }] } },
          joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'eviction-hard', value: 'nodefs.available<0%' }] } },
        },
      },
    },
    { apiVersion: INFRA_V1BETA2, kind: 'InMemoryMachineTemplate', metadata: meta(md), spec: { template: { spec: { startupSeconds } } } },
    {
      apiVersion: BOOTSTRAP_V1BETA2,
      kind: 'KubeadmConfigTemplate',
      metadata: meta(md),
      spec: { template: { spec: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'eviction-hard', value: 'nodefs.available<0%' }] } } } } },
    },
    {
      apiVersion: CORE_V1BETA2,
      kind: 'MachineDeployment',
      metadata: meta(md),
      spec: {
        clusterName: name,
        replicas: options.workerReplicas ?? 2,
        template: {
          spec: {
            clusterName: name,
            version,
            bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: md } },
            infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: md },
          },
        },
      },
    },
  ];
}
