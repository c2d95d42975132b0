/**
 * A WorkloadCluster for unit tests: a cluster with no Nodes and no Pods that accepts every write,
 * with the methods a test cares about overridden.
 */
import type { WorkloadCluster } from '../../shared/ports/workload-cluster.js';

export function workloadClusterStub(overrides: Partial<WorkloadCluster> = {}): WorkloadCluster {
  return {
    findNodeByProviderID: async () => undefined,
    applyObjects: async () => [],
    patchNode: async () => {},
    deleteNode: async () => {},
    listPodsOnNode: async () => [],
    listNamespaces: async () => [],
    daemonSetExists: async () => false,
    listVolumeAttachments: async () => [],
    listPersistentVolumes: async () => [],
    apiServerCertificateExpiry: async () => undefined,
    listEtcdMembers: async () => undefined,
    removeEtcdMember: async () => {},
    etcdStatus: async () => undefined,
    listEtcdAlarms: async () => undefined,
    listStaticPods: async () => [],
    moveEtcdLeader: async () => {},
    readConfigMap: async () => undefined,
    writeConfigMapData: async () => {},
    readContainerImage: async () => undefined,
    setContainerImage: async () => {},
    evictPod: async () => ({ result: 'NotFound' }),
    ...overrides,
  };
}
