import { isRecord } from '../contracts/json.js';
import type { ObjectStore } from './object-store.js';
import type { StaticPod } from './workload-static-pods.js';

export * from './workload-cluster-errors.js';
export type { StaticPod, StaticPodContainer } from './workload-static-pods.js';

/** A Node condition (corev1.NodeCondition) as health checks read it. */
export interface WorkloadNodeCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

/** A Node taint (corev1.Taint). */
export interface NodeTaint {
  key: string;
  value?: string;
  effect: string;
}

/** What the core sees of a workload cluster's Node. */
export interface WorkloadNode {
  name: string;
  ready?: boolean;
  /** status.conditions (Ready, MemoryPressure, …) when the cluster reports them. */
  conditions?: WorkloadNodeCondition[];
  /** status.nodeInfo fields (kubeletVersion, …). */
  info?: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** spec.taints. */
  taints?: NodeTaint[];
  /** spec.unschedulable: the Node is cordoned. */
  unschedulable?: boolean;
  /** status.volumesAttached[].name (`kubernetes.io/csi/<driver>^<volume handle>`). */
  volumesAttached?: string[];
  /** The version read: a patch naming it applies only to that version. */
  resourceVersion?: string;
  /** metadata.creationTimestamp, RFC 3339, when the cluster reports it. */
  creationTimestamp?: string;
}

/**
 * A change of a Node's metadata and taints, as Cluster API's Machine controller makes it: labels
 * and annotations set (a string) or removed (null), the whole taint list when it changes, and
 * the resourceVersion read (optimistic locking: a Node changed meanwhile refuses the patch).
 */
export interface NodePatch {
  labels: Record<string, string | null>;
  annotations: Record<string, string | null>;
  taints?: NodeTaint[];
  /** spec.unschedulable (true cordons the Node). */
  unschedulable?: boolean;
  resourceVersion?: string;
}

/** What a drain needs to know of a Pod (corev1.Pod), read at the adapter. */
export interface WorkloadPod {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The ownerReference with `controller: true` (a ReplicaSet, a DaemonSet …), when there is one. */
  controller?: { kind: string; name: string };
  /** status.phase (Pending, Running, Succeeded, Failed, Unknown). */
  phase?: string;
  /** metadata.deletionTimestamp: the Pod is terminating. */
  deletionTimestamp?: string;
  /** spec.volumes has an emptyDir (data that goes with the Node). */
  localStorage: boolean;
  /** The PersistentVolumeClaims its volumes name (spec.volumes[].persistentVolumeClaim.claimName). */
  persistentVolumeClaims: string[];
}

/** What waiting for a Node's volumes to detach needs of a PersistentVolume. */
export interface WorkloadPersistentVolume {
  name: string;
  /** spec.csi: the Node reports it attached as `kubernetes.io/csi/<driver>^<volumeHandle>`. */
  csi?: { driver: string; volumeHandle: string };
  /** spec.claimRef: the claim it is bound to. */
  claimRef?: { kind?: string; namespace?: string; name?: string };
}

/** A VolumeAttachment (storage.k8s.io/v1) that is attached to the Node asked about. */
export interface WorkloadVolumeAttachment {
  name: string;
  /** spec.source.persistentVolumeName (unset for inline volumes). */
  persistentVolumeName?: string;
}

/** A Namespace's name and labels (a MachineDrainRule's namespaceSelector matches them). */
export interface WorkloadNamespace {
  name: string;
  labels: Record<string, string>;
}

/**
 * Why the API refused an eviction: a PodDisruptionBudget would be violated (429), the Pod's
 * namespace is terminating (403 with the NamespaceTerminating cause), or anything else.
 */
export type EvictionRefusal = 'DisruptionBudget' | 'NamespaceTerminating' | 'Failed';

/**
 * What an eviction (policy/v1 Eviction, the Pod's `eviction` subresource) came to: the Pod is
 * being deleted, it was not there, or the API refused it (`message` is the API's, with the
 * causes it gave).
 */
export type EvictionOutcome = { result: 'Evicted' } | { result: 'NotFound' } | { result: 'Refused'; reason: EvictionRefusal; message: string };
export interface WorkloadClusterRef {
  namespace: string;
  name: string;
}

/** One member of the workload cluster's etcd (its Node's name once it started; a learner may have none yet). */
export interface EtcdMember {
  /** etcd's member ID, a uint64 written in decimal. */
  id: string;
  name: string;
  /** A learner: added, not yet promoted to a voting member. */
  isLearner?: boolean;
}

/** An alarm etcd raised on a member (`NOSPACE`, `CORRUPT`). */
export interface EtcdAlarm {
  memberId: string;
  alarm: string;
}

/** What one etcd member reports of itself (etcd's Maintenance Status): its ID and its leader's ("0" while there is none). */
export interface EtcdStatus {
  memberId: string;
  leaderId: string;
}

/** The control-plane Node whose etcd Pod (`kube-system/etcd-<node>`) a call goes through. */
export interface EtcdNode {
  name: string;
  providerID: string;
}

/** A ConfigMap of the workload cluster: where it is. */
export interface ConfigMapRef {
  namespace: string;
  name: string;
}

/** A ConfigMap's `data`, read at `resourceVersion` (what a write names to change it). */
export interface WorkloadConfigMap {
  data: Record<string, string>;
  resourceVersion: string;
}

/** A DaemonSet or Deployment of the workload cluster. */
export interface PodControllerRef {
  kind: 'DaemonSet' | 'Deployment';
  namespace: string;
  name: string;
}

/** A container's image in a Pod template, read at the controller's `resourceVersion`. */
export interface ContainerImage {
  image: string;
  resourceVersion: string;
}

/** Any Kubernetes object to create in a workload cluster (a ClusterResourceSet resource's document). */
export interface WorkloadObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string } & Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * How `applyObjects` treats an object that already exists (Cluster API's ClusterResourceSet
 * strategies): `CreateOnly` leaves it as it is (ApplyOnce); `CreateOrUpdate` merges the given
 * fields into it (Reconcile).
 */
export type ApplyMode = 'CreateOnly' | 'CreateOrUpdate';

/** One object `applyObjects` could not apply; the others were still tried. */
export interface ApplyFailure {
  object: { apiVersion: string; kind: string; namespace?: string; name: string };
  message: string;
}

/** The workload cluster's API as the core needs it (capi-contract.md §3.2 node reference; ClusterResourceSet). */
export interface WorkloadCluster {
  findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined>;
  /** Applies every object in order; resolves with the ones that failed (empty when all applied). */
  applyObjects(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], options: { mode: ApplyMode }): Promise<ApplyFailure[]>;
  /** Patches the Node's labels, annotations and taints (a merge patch at `patch.resourceVersion`). */
  patchNode(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): Promise<void>;
  /** Deletes the Node; one that is not there is already deleted. */
  deleteNode(cluster: WorkloadClusterRef, nodeName: string): Promise<void>;
  /** Every Pod bound to the Node (`spec.nodeName`), in every namespace. */
  listPodsOnNode(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadPod[]>;
  /** Every Namespace with its labels. */
  listNamespaces(cluster: WorkloadClusterRef): Promise<WorkloadNamespace[]>;
  /** Whether the DaemonSet exists (a Pod it controls is left on a drained Node; an orphan is evicted). */
  daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): Promise<boolean>;
  /** The VolumeAttachments attached (status.attached) to the Node. */
  listVolumeAttachments(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadVolumeAttachment[]>;
  /** Every PersistentVolume. */
  listPersistentVolumes(cluster: WorkloadClusterRef): Promise<WorkloadPersistentVolume[]>;
  /**
   * When the serving certificate (CN `kube-apiserver`) of the Node's kube-apiserver static Pod
   * (`kube-system/kube-apiserver-<node>`) expires, RFC 3339, read through a port-forward to its
   * `port`; undefined when the Node runs no such Pod.
   */
  apiServerCertificateExpiry(cluster: WorkloadClusterRef, node: { name: string; providerID: string }, port: number): Promise<string | undefined>;
  /**
   * The etcd cluster's members, asked through the etcd Pod on `node` (a port-forward to its client
   * port, authenticated with a client certificate of the cluster's etcd CA, as Cluster API's
   * etcd client does); undefined when the Node runs no etcd Pod (etcd is external).
   */
  listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined>;
  /** Removes the member through the etcd Pod on `node`; a member that is already gone is removed. */
  removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void>;
  /** The alarms etcd has raised on its members, asked through `node`; undefined when the Node runs no etcd Pod. */
  listEtcdAlarms(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdAlarm[] | undefined>;
  /** The status of the etcd member on `node` (its leader among it); undefined when the Node runs no etcd Pod. */
  etcdStatus(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdStatus | undefined>;
  /**
   * Moves etcd's leadership to the member `targetMemberId`, asked of the etcd Pod on `node`:
   * etcd refuses unless that member is the leader and the target a voting member (transient).
   */
  moveEtcdLeader(cluster: WorkloadClusterRef, node: EtcdNode, targetMemberId: string): Promise<void>;
  /**
   * The `kube-system` Pods on the control-plane `node` (the mirror Pods of its static Pods,
   * `<component>-<node>`) with their status; none when the Node runs none.
   */
  listStaticPods(cluster: WorkloadClusterRef, node: EtcdNode): Promise<StaticPod[]>;
  /** The ConfigMap's data; undefined when there is none. */
  readConfigMap(cluster: WorkloadClusterRef, configMap: ConfigMapRef): Promise<WorkloadConfigMap | undefined>;
  /**
   * Sets the given `data` keys of the ConfigMap (the others kept), provided it is still at
   * `resourceVersion`; changed or gone since is `WorkloadClusterConflictError` (read again).
   */
  writeConfigMapData(cluster: WorkloadClusterRef, configMap: ConfigMapRef, data: Record<string, string>, resourceVersion: string): Promise<void>;
  /** The image of the named container in the controller's Pod template; undefined when either is absent. */
  readContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string): Promise<ContainerImage | undefined>;
  /**
   * Sets that container's image (a strategic merge patch: the other containers and fields kept),
   * provided the controller is still at `resourceVersion`; changed or gone since is
   * `WorkloadClusterConflictError`.
   */
  setContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string, image: string, resourceVersion: string): Promise<void>;
  /** Evicts the Pod through the Eviction API (PodDisruptionBudgets apply); `gracePeriodSeconds` overrides the Pod's. */
  evictPod(cluster: WorkloadClusterRef, pod: { namespace: string; name: string }, options: { gracePeriodSeconds?: number }): Promise<EvictionOutcome>;
  /**
   * The same workload clusters, reading capless's store through `store`: a reconcile passes its
   * own (the per-reconcile read cache), so an object it already read is not read again. Absent
   * on an implementation that reads nothing of the store per call.
   */
  readingThrough?(store: ObjectStore): WorkloadCluster;
}

/** Key of the WorkloadCluster port on ReconcileContext.providers. */
export const WORKLOAD_CLUSTER_PORT = 'workloadCluster';

const WORKLOAD_CLUSTER_METHODS = [
  'findNodeByProviderID',
  'applyObjects',
  'patchNode',
  'deleteNode',
  'listPodsOnNode',
  'listNamespaces',
  'daemonSetExists',
  'listVolumeAttachments',
  'listPersistentVolumes',
  'apiServerCertificateExpiry',
  'listEtcdMembers',
  'removeEtcdMember',
  'etcdStatus',
  'listEtcdAlarms',
  'moveEtcdLeader',
  'listStaticPods',
  'readConfigMap',
  'writeConfigMapData',
  'readContainerImage',
  'setContainerImage',
  'evictPod',
] as const satisfies ReadonlyArray<keyof WorkloadCluster>;

export function isWorkloadCluster(value: unknown): value is WorkloadCluster {
  return isRecord(value) && WORKLOAD_CLUSTER_METHODS.every((method) => typeof value[method] === 'function');
}
