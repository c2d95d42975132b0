/**
 * What every simulated workload cluster shares: the objects applied to it, its Nodes' metadata and
 * its Pods, kept in process (InMemoryWorkloadObjects). A subclass says only how a providerID
 * becomes a Node (the in-memory provider's simulated Node, an emulated EC2 instance …).
 */
import {
  type ApplyFailure,
  type ApplyMode,
  type ConfigMapRef,
  type ContainerImage,
  type EtcdAlarm,
  type EtcdMember,
  type EtcdNode,
  type EtcdStatus,
  type EvictionOutcome,
  type NodePatch,
  type PodControllerRef,
  type StaticPod,
  type WorkloadCluster,
  WorkloadClusterConflictError,
  WorkloadClusterUnavailableError,
  type WorkloadClusterRef,
  type WorkloadConfigMap,
  type WorkloadNamespace,
  type WorkloadNode,
  type WorkloadObject,
  type WorkloadPersistentVolume,
  type WorkloadPod,
  type WorkloadVolumeAttachment,
} from '../ports/workload-cluster.js';
import { isRecord, recordAt } from '../contracts/json.js';
import { InMemoryWorkloadObjects } from './in-memory-workload-objects.js';

/** An applied object's resourceVersion: 1 as applied, counting the writes made here since. */
function resourceVersionOf(object: WorkloadObject): string {
  return typeof object.metadata.resourceVersion === 'string' ? object.metadata.resourceVersion : '1';
}

/** The containers of a DaemonSet's or Deployment's Pod template (the records among them). */
function containersOf(controller: WorkloadObject): Record<string, unknown>[] {
  const containers = recordAt(controller, 'spec', 'template', 'spec')?.containers;
  return Array.isArray(containers) ? containers.filter(isRecord) : [];
}

/** The static Pods kubeadm writes on a control-plane Node with a stacked etcd. */
const KUBEADM_STATIC_PODS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

export abstract class SimulatedWorkloadCluster implements WorkloadCluster {
  /** Where applied objects, Node metadata and Pods live; share one per process so every reconcile sees the same clusters. */
  constructor(readonly objects: InMemoryWorkloadObjects = new InMemoryWorkloadObjects()) {}

  abstract findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined>;

  async applyObjects(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], options: { mode: ApplyMode }): Promise<ApplyFailure[]> {
    return this.objects.apply(cluster, objects, options.mode);
  }

  async patchNode(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): Promise<void> {
    this.objects.nodes.patch(cluster, nodeName, patch);
  }

  /** A simulated Node goes with its machine; what was written to it goes now. */
  async deleteNode(cluster: WorkloadClusterRef, nodeName: string): Promise<void> {
    this.objects.nodes.forget(cluster, nodeName);
  }

  async listPodsOnNode(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadPod[]> {
    return this.objects.pods.podsOnNode(cluster, nodeName);
  }

  async listNamespaces(cluster: WorkloadClusterRef): Promise<WorkloadNamespace[]> {
    return this.objects.pods.namespaces(cluster);
  }

  async daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): Promise<boolean> {
    return this.objects.pods.daemonSetExists(cluster, namespace, name);
  }

  async listVolumeAttachments(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadVolumeAttachment[]> {
    return this.objects.volumes.attachments(cluster, nodeName);
  }

  async listPersistentVolumes(cluster: WorkloadClusterRef): Promise<WorkloadPersistentVolume[]> {
    return this.objects.volumes.persistentVolumes(cluster);
  }

  /** A simulated cluster runs no kube-apiserver Pods unless a subclass says otherwise. */
  async apiServerCertificateExpiry(_cluster: WorkloadClusterRef, _node: { name: string; providerID: string }, _port: number): Promise<string | undefined> {
    return undefined;
  }

  /**
   * The Nodes of the cluster that run an etcd member, each with its providerID; undefined when
   * `through` runs none (a subclass that simulates no etcd: none does).
   */
  protected async etcdNodes(_cluster: WorkloadClusterRef, _through: EtcdNode): Promise<EtcdNode[] | undefined> {
    return undefined;
  }

  async listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined> {
    const nodes = await this.etcdNodes(cluster, node);
    return nodes && this.objects.etcd.members(cluster, nodes);
  }

  async removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void> {
    if (await this.etcdNodes(cluster, node)) this.objects.etcd.remove(cluster, memberId);
  }

  async listEtcdAlarms(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdAlarm[] | undefined> {
    const nodes = await this.etcdNodes(cluster, node);
    return nodes && this.objects.etcd.alarms(cluster, nodes);
  }

  async etcdStatus(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdStatus | undefined> {
    const nodes = await this.etcdNodes(cluster, node);
    return nodes && this.objects.etcd.status(cluster, nodes, node);
  }

  /**
   * The control-plane Node `node` names, when this cluster simulates one there (a subclass says
   * which: none does here).
   */
  protected async controlPlaneNode(_cluster: WorkloadClusterRef, _node: EtcdNode): Promise<WorkloadNode | undefined> {
    return undefined;
  }

  /** kubeadm's static Pods on a simulated control-plane Node: Running and Ready while the Node is, Pending before. */
  async listStaticPods(cluster: WorkloadClusterRef, node: EtcdNode): Promise<StaticPod[]> {
    const found = await this.controlPlaneNode(cluster, node);
    if (!found) return [];
    const conditions = found.ready
      ? [{ type: 'PodScheduled', status: 'True' }, { type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }]
      : [{ type: 'PodScheduled', status: 'True' }, { type: 'Initialized', status: 'False' }];
    return KUBEADM_STATIC_PODS.map((component) => ({ name: `${component}-${node.name}`, phase: found.ready ? 'Running' : 'Pending', conditions, containers: [{}] }));
  }

  async moveEtcdLeader(cluster: WorkloadClusterRef, node: EtcdNode, targetMemberId: string): Promise<void> {
    const nodes = await this.etcdNodes(cluster, node);
    if (!nodes) throw new WorkloadClusterUnavailableError('ConnectionDown', `moving etcd leadership through Node ${node.name}: it runs no etcd Pod`);
    this.objects.etcd.moveLeader(cluster, nodes, node, targetMemberId);
  }

  /** A ConfigMap among the applied objects. */
  async readConfigMap(cluster: WorkloadClusterRef, configMap: ConfigMapRef): Promise<WorkloadConfigMap | undefined> {
    const found = this.objects.list(cluster, 'v1', 'ConfigMap').find((o) => o.metadata.name === configMap.name && o.metadata.namespace === configMap.namespace);
    if (!found) return undefined;
    const data = isRecord(found.data) ? Object.fromEntries(Object.entries(found.data).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : []))) : {};
    return { data, resourceVersion: resourceVersionOf(found) };
  }

  async writeConfigMapData(cluster: WorkloadClusterRef, configMap: ConfigMapRef, data: Record<string, string>, resourceVersion: string): Promise<void> {
    const current = await this.readConfigMap(cluster, configMap);
    if (current?.resourceVersion !== resourceVersion) throw new WorkloadClusterConflictError(`writing ConfigMap ${configMap.namespace}/${configMap.name}: ${current ? 'the object has been modified' : 'not found'}`);
    const next = { ...configMap, resourceVersion: String(Number(resourceVersion) + 1) };
    this.objects.apply(cluster, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: next, data }], 'CreateOrUpdate');
  }

  /** A DaemonSet or Deployment among the applied objects. */
  async readContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string): Promise<ContainerImage | undefined> {
    const found = this.podController(cluster, controller);
    const image = found && containersOf(found).find((c) => c.name === container)?.image;
    return found && typeof image === 'string' ? { image, resourceVersion: resourceVersionOf(found) } : undefined;
  }

  async setContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string, image: string, resourceVersion: string): Promise<void> {
    const found = this.podController(cluster, controller);
    if (!found || resourceVersionOf(found) !== resourceVersion) throw new WorkloadClusterConflictError(`setting the ${container} image of ${controller.kind} ${controller.namespace}/${controller.name}: ${found ? 'the object has been modified' : 'not found'}`);
    const containers = containersOf(found).map((c) => (c.name === container ? { ...c, image } : c));
    const metadata = { namespace: controller.namespace, name: controller.name, resourceVersion: String(Number(resourceVersion) + 1) };
    this.objects.apply(cluster, [{ apiVersion: 'apps/v1', kind: controller.kind, metadata, spec: { template: { spec: { containers } } } }], 'CreateOrUpdate');
  }

  private podController(cluster: WorkloadClusterRef, controller: PodControllerRef): WorkloadObject | undefined {
    return this.objects.list(cluster, 'apps/v1', controller.kind).find((o) => o.metadata.name === controller.name && o.metadata.namespace === controller.namespace);
  }

  /** Grace periods are not simulated: an evicted Pod stops at once. */
  async evictPod(cluster: WorkloadClusterRef, pod: { namespace: string; name: string }, _options: { gracePeriodSeconds?: number } = {}): Promise<EvictionOutcome> {
    return this.objects.pods.evict(cluster, pod);
  }
}
