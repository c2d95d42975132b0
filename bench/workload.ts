import type { KubeObject } from '../shared/contracts/object.js';
import type { KeyAlgorithm } from '../shared/pki/key-algorithm.js';

/** The shape of every benchmark cluster. */
export interface ClusterShape {
  controlPlaneReplicas: number;
  workerReplicas: number;
  /** InMemoryMachine startupSeconds. */
  provisionSeconds: number;
  /** kubeadm `clusterConfiguration.encryptionAlgorithm` of the cluster's certificates. */
  keyAlgorithm: KeyAlgorithm;
}

export interface BenchCluster {
  namespace: string;
  name: string;
}

/** One namespace per cluster, as Cluster API's own scale tests do: lists stay per cluster. */
export function benchCluster(runId: string, index: number): BenchCluster {
  const suffix = String(index).padStart(4, '0');
  return { namespace: `bench-${runId}-${suffix}`, name: `c${suffix}` };
}

const VERSION = 'v1.32.0';
const INFRA = 'infrastructure.cluster.x-k8s.io';

/**
 * The objects a user applies for one cluster on the in-memory provider
 * (examples/in-memory-cluster.yaml): InMemoryCluster, a KubeadmControlPlane with its machine
 * template, a MachineDeployment with its machine and bootstrap templates, and the Cluster last.
 * Dependencies first, as GitOps tools order by kind: a Cluster applied before its InMemoryCluster
 * and KubeadmControlPlane exist waits REFERENCE_MISSING_REQUEUE_SECONDS (30 s, as Cluster API
 * does) before it looks again, which would measure that timer rather than the control plane.
 */
export function clusterObjects(namespace: string, name: string, shape: ClusterShape): KubeObject[] {
  const meta = (objectName: string) => ({ name: objectName, namespace });
  const machineTemplate = (objectName: string): KubeObject => ({
    apiVersion: `${INFRA}/v1beta2`,
    kind: 'InMemoryMachineTemplate',
    metadata: meta(objectName),
    spec: { template: { spec: { startupSeconds: shape.provisionSeconds } } },
  });
  const objects: KubeObject[] = [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: meta(name),
      spec: {
        clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] }, services: { cidrBlocks: ['10.128.0.0/12'] } },
        infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryCluster', name },
        controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: `${name}-cp` },
      },
    },
    { apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryCluster', metadata: meta(name), spec: {} },
    machineTemplate(`${name}-cp`),
    {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: meta(`${name}-cp`),
      spec: {
        replicas: shape.controlPlaneReplicas,
        version: VERSION,
        machineTemplate: { spec: { infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachineTemplate', name: `${name}-cp` } } },
        kubeadmConfigSpec: { clusterConfiguration: { encryptionAlgorithm: shape.keyAlgorithm } },
      },
    },
  ];
  const [cluster, ...dependencies] = objects;
  if (!cluster) return objects;
  if (shape.workerReplicas === 0) return [...dependencies, cluster];
  return [
    ...dependencies,
    machineTemplate(`${name}-md`),
    {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfigTemplate',
      metadata: meta(`${name}-md`),
      spec: { template: { spec: {} } },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: meta(`${name}-md`),
      spec: {
        clusterName: name,
        replicas: shape.workerReplicas,
        template: {
          spec: {
            clusterName: name,
            version: VERSION,
            bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: `${name}-md` } },
            infrastructureRef: { apiGroup: INFRA, kind: 'InMemoryMachineTemplate', name: `${name}-md` },
          },
        },
      },
    },
    cluster,
  ];
}
