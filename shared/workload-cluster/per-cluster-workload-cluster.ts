/**
 * The WorkloadCluster the reconcilers get: simulated clusters (in-memory infrastructure) are
 * answered by the in-memory implementation, every other cluster by the kubeconfig-based one.
 * Nodes are found by their providerID's scheme (no read: the scheme names the provider); applied
 * objects, Node patches and drains go by the Cluster's `spec.infrastructureRef` (InMemoryCluster, or a
 * DevCluster with `backend.inMemory`, is simulated).
 */
import { recordAt, stringAt } from '../contracts/json.js';
import type { ObjectStore } from '../ports/object-store.js';
import type {
  ApplyFailure,
  ApplyMode,
  ConfigMapRef,
  ContainerImage,
  EtcdAlarm,
  EtcdMember,
  EtcdNode,
  EtcdStatus,
  EvictionOutcome,
  NodePatch,
  PodControllerRef,
  StaticPod,
  WorkloadCluster,
  WorkloadClusterRef,
  WorkloadConfigMap,
  WorkloadNamespace,
  WorkloadNode,
  WorkloadObject,
  WorkloadPersistentVolume,
  WorkloadPod,
  WorkloadVolumeAttachment,
} from '../ports/workload-cluster.js';
import { parseInMemoryProviderID } from './in-memory-workload-cluster.js';

const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';

export class PerClusterWorkloadCluster implements WorkloadCluster {
  constructor(
    private readonly store: ObjectStore,
    private readonly simulated: WorkloadCluster,
    private readonly real: WorkloadCluster,
  ) {}

  /** Both halves reading through `store` where they read it (the Cluster this one looks up, the simulated Nodes). */
  readingThrough(store: ObjectStore): WorkloadCluster {
    return new PerClusterWorkloadCluster(store, this.simulated.readingThrough?.(store) ?? this.simulated, this.real.readingThrough?.(store) ?? this.real);
  }

  findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    return (parseInMemoryProviderID(providerID) ? this.simulated : this.real).findNodeByProviderID(cluster, providerID);
  }

  async applyObjects(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], options: { mode: ApplyMode }): Promise<ApplyFailure[]> {
    return (await this.of(cluster)).applyObjects(cluster, objects, options);
  }

  async patchNode(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): Promise<void> {
    return (await this.of(cluster)).patchNode(cluster, nodeName, patch);
  }

  async deleteNode(cluster: WorkloadClusterRef, nodeName: string): Promise<void> {
    return (await this.of(cluster)).deleteNode(cluster, nodeName);
  }

  async listPodsOnNode(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadPod[]> {
    return (await this.of(cluster)).listPodsOnNode(cluster, nodeName);
  }

  async listNamespaces(cluster: WorkloadClusterRef): Promise<WorkloadNamespace[]> {
    return (await this.of(cluster)).listNamespaces(cluster);
  }

  async readConfigMap(cluster: WorkloadClusterRef, configMap: ConfigMapRef): Promise<WorkloadConfigMap | undefined> {
    return (await this.of(cluster)).readConfigMap(cluster, configMap);
  }

  async readContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string): Promise<ContainerImage | undefined> {
    return (await this.of(cluster)).readContainerImage(cluster, controller, container);
  }

  async setContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string, image: string, resourceVersion: string): Promise<void> {
    return (await this.of(cluster)).setContainerImage(cluster, controller, container, image, resourceVersion);
  }

  async writeConfigMapData(cluster: WorkloadClusterRef, configMap: ConfigMapRef, data: Record<string, string>, resourceVersion: string): Promise<void> {
    return (await this.of(cluster)).writeConfigMapData(cluster, configMap, data, resourceVersion);
  }

  async daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): Promise<boolean> {
    return (await this.of(cluster)).daemonSetExists(cluster, namespace, name);
  }

  async listVolumeAttachments(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadVolumeAttachment[]> {
    return (await this.of(cluster)).listVolumeAttachments(cluster, nodeName);
  }

  async listPersistentVolumes(cluster: WorkloadClusterRef): Promise<WorkloadPersistentVolume[]> {
    return (await this.of(cluster)).listPersistentVolumes(cluster);
  }

  async apiServerCertificateExpiry(cluster: WorkloadClusterRef, node: { name: string; providerID: string }, port: number): Promise<string | undefined> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).apiServerCertificateExpiry(cluster, node, port);
  }

  async listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).listEtcdMembers(cluster, node);
  }

  async removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).removeEtcdMember(cluster, node, memberId);
  }

  async listEtcdAlarms(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdAlarm[] | undefined> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).listEtcdAlarms(cluster, node);
  }

  async etcdStatus(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdStatus | undefined> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).etcdStatus(cluster, node);
  }

  async listStaticPods(cluster: WorkloadClusterRef, node: EtcdNode): Promise<StaticPod[]> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).listStaticPods(cluster, node);
  }

  async moveEtcdLeader(cluster: WorkloadClusterRef, node: EtcdNode, targetMemberId: string): Promise<void> {
    return (parseInMemoryProviderID(node.providerID) ? this.simulated : this.real).moveEtcdLeader(cluster, node, targetMemberId);
  }

  async evictPod(cluster: WorkloadClusterRef, pod: { namespace: string; name: string }, options: { gracePeriodSeconds?: number }): Promise<EvictionOutcome> {
    return (await this.of(cluster)).evictPod(cluster, pod, options);
  }

  /** The half that answers for the cluster. */
  private async of(cluster: WorkloadClusterRef): Promise<WorkloadCluster> {
    return (await this.isSimulated(cluster)) ? this.simulated : this.real;
  }

  /** Whether the Cluster's infrastructure is simulated by capless's in-memory provider. */
  async isSimulated(ref: WorkloadClusterRef): Promise<boolean> {
    const cluster = await this.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: ref.namespace, name: ref.name });
    const infra = recordAt(cluster, 'spec', 'infrastructureRef');
    const kind = stringAt(infra, 'kind');
    const name = stringAt(infra, 'name');
    if (kind === 'InMemoryCluster') return true;
    if (kind !== 'DevCluster' || !name) return false;
    const dev = await this.store.get({ group: INFRASTRUCTURE_GROUP, kind, namespace: ref.namespace, name });
    return recordAt(dev, 'spec', 'backend', 'inMemory') !== undefined;
  }
}
