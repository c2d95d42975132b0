import type { KubeObject } from '../shared/contracts/object.js';
import type { ClusterShape } from './workload.js';

const VERSION = 'v1.32.0';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CONTROL_PLANE = 'controlplane.cluster.x-k8s.io/v1beta2';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io/v1beta2';

/**
 * `npm run bench -- --topology`: the same cluster shape, created the way most Cluster API users
 * create clusters now: a ClusterClass with its templates (Cluster API's development provider,
 * in-memory backend) and a Cluster with `spec.topology`; the topology controller creates the
 * DevCluster, KubeadmControlPlane, MachineDeployment and their templates. Class first, Cluster
 * last (the Cluster's admission checks it against its class).
 */
export function topologyClusterObjects(namespace: string, name: string, shape: ClusterShape): KubeObject[] {
  const meta = (objectName: string) => ({ name: objectName, namespace });
  const boot = { provisioning: { startupDuration: `${shape.provisionSeconds}s` } };
  const machineTemplate = (objectName: string): KubeObject => ({
    apiVersion: INFRA,
    kind: 'DevMachineTemplate',
    metadata: meta(objectName),
    spec: { template: { spec: { backend: { inMemory: { vm: boot } } } } },
  });
  const className = `${name}-class`;
  return [
    { apiVersion: INFRA, kind: 'DevClusterTemplate', metadata: meta(className), spec: { template: { spec: { backend: { inMemory: {} } } } } },
    {
      apiVersion: CONTROL_PLANE,
      kind: 'KubeadmControlPlaneTemplate',
      metadata: meta(className),
      spec: { template: { spec: { kubeadmConfigSpec: { clusterConfiguration: { encryptionAlgorithm: shape.keyAlgorithm } } } } },
    },
    machineTemplate(`${className}-cp`),
    machineTemplate(`${className}-md`),
    { apiVersion: BOOTSTRAP, kind: 'KubeadmConfigTemplate', metadata: meta(className), spec: { template: { spec: {} } } },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      metadata: meta(className),
      spec: {
        infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevClusterTemplate', name: className } },
        controlPlane: {
          templateRef: { apiVersion: CONTROL_PLANE, kind: 'KubeadmControlPlaneTemplate', name: className },
          machineInfrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: `${className}-cp` } },
        },
        workers: {
          machineDeployments: [
            {
              class: 'worker',
              bootstrap: { templateRef: { apiVersion: BOOTSTRAP, kind: 'KubeadmConfigTemplate', name: className } },
              infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: `${className}-md` } },
            },
          ],
        },
      },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: meta(name),
      spec: {
        clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] }, services: { cidrBlocks: ['10.128.0.0/12'] } },
        topology: {
          classRef: { name: className },
          version: VERSION,
          controlPlane: { replicas: shape.controlPlaneReplicas },
          workers: { machineDeployments: shape.workerReplicas === 0 ? [] : [{ class: 'worker', name: 'md-0', replicas: shape.workerReplicas }] },
        },
      },
    },
  ];
}

/** Deletion order: the Cluster first (its topology objects go with it), then the class and its templates. */
export function topologyDeletionOrder(objects: readonly KubeObject[]): KubeObject[] {
  return [...objects.filter((o) => o.kind === 'Cluster'), ...objects.filter((o) => o.kind !== 'Cluster')];
}
