/**
 * The WorkloadCluster of real clusters: `@kubernetes/client-node` with the admin kubeconfig
 * Cluster API keeps in the `<cluster>-kubeconfig` Secret (workload-api-clients.ts).
 *
 * - Nodes are listed page by page and filtered on `spec.providerID` (kube-apiserver has no field
 *   selector for it), as Cluster API's node reference lookup does.
 * - Objects are created (`CreateOnly`) or read and merge-patched at the read resourceVersion
 *   (`CreateOrUpdate`), the way ClusterResourceSet applies its resources.
 * - A Node's labels, annotations and taints are merge-patched at the resourceVersion the Machine
 *   reconcile read (a Node changed meanwhile is a 409: `WorkloadClusterConflictError`, retried).
 * - A drain lists the Pods on a Node (field selector `spec.nodeName`, page by page), the
 *   Namespaces, VolumeAttachments and PersistentVolumes, reads DaemonSets, and evicts through the
 *   Pods' `eviction` subresource; a refused eviction (429 of a disruption budget, a terminating
 *   namespace, any other 4xx) is an outcome, not an error.
 * - A kube-apiserver's certificate is read through a port-forward (api-server-certificate.ts),
 *   and etcd's members listed and removed, and its leadership moved, through one (etcd-gateway.ts).
 * - ConfigMaps and Pod controllers' container images are read and written at a resourceVersion
 *   (kept-objects.ts: kubeadm-config, kube-proxy).
 * - No Secret yet, connection failures, timeouts and 5xx are `WorkloadClusterUnavailableError`
 *   (transient); 401/403 are `WorkloadClusterAccessDeniedError`.
 */
import { ApiException, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { type Clock, systemClock } from '../../ports/clock.js';
import type { ObjectStore } from '../../ports/object-store.js';
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
  type WorkloadClusterRef,
  type WorkloadConfigMap,
  type WorkloadNamespace,
  type WorkloadNode,
  type WorkloadObject,
  type WorkloadPersistentVolume,
  type WorkloadPod,
  type WorkloadVolumeAttachment,
  WorkloadClusterConflictError,
} from '../../ports/workload-cluster.js';
import { allPages } from './all-pages.js';
import { apiServerCertificateNotAfter } from './api-server-certificate.js';
import { EtcdCredentialsCache } from './etcd-credentials.js';
import { etcdStatus, listEtcdAlarms, listEtcdMembers, moveEtcdLeader, removeEtcdMember } from './etcd-gateway.js';
import { FIELD_MANAGER, readConfigMap, readContainerImage, setContainerImage, writeConfigMapData } from './kept-objects.js';
import { workloadNodeOf } from './node-mapping.js';
import { persistentVolumeOfV1, refusedEviction, staticPodOfV1, volumeAttachmentOf, workloadPodOfV1 } from './pod-mapping.js';
import { type ClusterClient, describeCluster, WorkloadApiClients } from './workload-api-clients.js';
import { classifyWorkloadApiError, statusMessage } from './workload-api-errors.js';

export interface KubeconfigWorkloadClusterOptions {
  store: ObjectStore;
  /** When etcd client certificates start. @default the system clock */
  clock?: Clock;
  /** Nodes per list page. @default 100 */
  pageSize?: number;
  /** Each API call gives up after this long (a transient error). @default 10000 */
  timeoutMs?: number;
}


export class KubeconfigWorkloadCluster implements WorkloadCluster {
  private readonly api: WorkloadApiClients;

  private readonly etcd: EtcdCredentialsCache;

  constructor(options: KubeconfigWorkloadClusterOptions) {
    this.api = new WorkloadApiClients(options.store, options.pageSize ?? 100, options.timeoutMs ?? 10_000);
    this.etcd = new EtcdCredentialsCache(options.store, options.clock ?? systemClock);
  }

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const client = await this.api.clientFor(cluster);
    let continueToken: string | undefined;
    do {
      const page = await this.api.call(`listing the Nodes of ${describeCluster(cluster)}`, () =>
        client.core.listNode(this.api.page(continueToken)),
      );
      const node = page.items.find((n) => n.spec?.providerID === providerID);
      if (node) return workloadNodeOf(node);
      continueToken = page.metadata?._continue || undefined;
    } while (continueToken);
    return undefined;
  }

  async applyObjects(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], options: { mode: ApplyMode }): Promise<ApplyFailure[]> {
    const client = await this.api.clientFor(cluster);
    const failures: ApplyFailure[] = [];
    for (const object of objects) {
      const failure = await this.applyOne(client, object, options.mode);
      if (failure) failures.push({ object: identityOf(object), message: failure });
    }
    return failures;
  }

  async patchNode(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): Promise<void> {
    const client = await this.api.clientFor(cluster);
    // A JSON merge patch: null removes a label or annotation, `taints` replaces the list.
    const spec = {
      ...(patch.taints ? { taints: patch.taints } : {}),
      ...(patch.unschedulable !== undefined ? { unschedulable: patch.unschedulable } : {}),
    };
    const body = {
      metadata: {
        ...(patch.resourceVersion ? { resourceVersion: patch.resourceVersion } : {}),
        labels: patch.labels,
        annotations: patch.annotations,
      },
      ...(Object.keys(spec).length > 0 ? { spec } : {}),
    };
    const what = `patching Node ${nodeName} of ${describeCluster(cluster)}`;
    try {
      await this.api.call(what, () => client.core.patchNode({ name: nodeName, body, fieldManager: FIELD_MANAGER }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) throw new WorkloadClusterConflictError(`${what}: ${statusMessage(error.body)}`, { cause: error });
      throw error;
    }
  }

  async deleteNode(cluster: WorkloadClusterRef, nodeName: string): Promise<void> {
    const client = await this.api.clientFor(cluster);
    try {
      await this.api.call(`deleting Node ${nodeName} of ${describeCluster(cluster)}`, () => client.core.deleteNode({ name: nodeName }));
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
    }
  }

  async listPodsOnNode(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadPod[]> {
    const client = await this.api.clientFor(cluster);
    const pods = await allPages((continueToken) =>
      this.api.call(`listing the Pods on Node ${nodeName} of ${describeCluster(cluster)}`, () => client.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}`, ...this.api.page(continueToken) })),
    );
    return pods.flatMap((pod) => workloadPodOfV1(pod) ?? []);
  }

  async listStaticPods(cluster: WorkloadClusterRef, node: EtcdNode): Promise<StaticPod[]> {
    const client = await this.api.clientFor(cluster);
    const pods = await allPages((continueToken) =>
      this.api.call(`listing the kube-system Pods on Node ${node.name} of ${describeCluster(cluster)}`, () =>
        client.core.listNamespacedPod({ namespace: 'kube-system', fieldSelector: `spec.nodeName=${node.name}`, ...this.api.page(continueToken) }),
      ),
    );
    return pods.flatMap((pod) => staticPodOfV1(pod) ?? []);
  }

  async listVolumeAttachments(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadVolumeAttachment[]> {
    const client = await this.api.clientFor(cluster);
    const attachments = await allPages((continueToken) =>
      this.api.call(`listing the VolumeAttachments of ${describeCluster(cluster)}`, () => client.storage.listVolumeAttachment(this.api.page(continueToken))),
    );
    return attachments.flatMap((va) => (va.status?.attached && va.spec.nodeName === nodeName && va.metadata?.name ? [volumeAttachmentOf(va.metadata.name, va.spec.source.persistentVolumeName)] : []));
  }

  async listPersistentVolumes(cluster: WorkloadClusterRef): Promise<WorkloadPersistentVolume[]> {
    const client = await this.api.clientFor(cluster);
    const volumes = await allPages((continueToken) =>
      this.api.call(`listing the PersistentVolumes of ${describeCluster(cluster)}`, () => client.core.listPersistentVolume(this.api.page(continueToken))),
    );
    return volumes.flatMap((pv) => persistentVolumeOfV1(pv) ?? []);
  }

  async listNamespaces(cluster: WorkloadClusterRef): Promise<WorkloadNamespace[]> {
    const client = await this.api.clientFor(cluster);
    const list = await this.api.call(`listing the Namespaces of ${describeCluster(cluster)}`, () => client.core.listNamespace());
    return list.items.flatMap((ns) => (ns.metadata?.name ? [{ name: ns.metadata.name, labels: { ...ns.metadata.labels } }] : []));
  }

  async readConfigMap(cluster: WorkloadClusterRef, configMap: ConfigMapRef): Promise<WorkloadConfigMap | undefined> {
    return readConfigMap(this.api, await this.api.clientFor(cluster), cluster, configMap);
  }

  async writeConfigMapData(cluster: WorkloadClusterRef, configMap: ConfigMapRef, data: Record<string, string>, resourceVersion: string): Promise<void> {
    await writeConfigMapData(this.api, await this.api.clientFor(cluster), cluster, configMap, data, resourceVersion);
  }

  async readContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string): Promise<ContainerImage | undefined> {
    return readContainerImage(this.api, await this.api.clientFor(cluster), cluster, controller, container);
  }

  async setContainerImage(cluster: WorkloadClusterRef, controller: PodControllerRef, container: string, image: string, resourceVersion: string): Promise<void> {
    await setContainerImage(this.api, await this.api.clientFor(cluster), cluster, controller, container, image, resourceVersion);
  }

  async daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): Promise<boolean> {
    const client = await this.api.clientFor(cluster);
    try {
      await this.api.call(`reading DaemonSet ${namespace}/${name} of ${describeCluster(cluster)}`, () => client.apps.readNamespacedDaemonSet({ namespace, name }));
      return true;
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return false;
      throw error;
    }
  }

  async apiServerCertificateExpiry(cluster: WorkloadClusterRef, node: { name: string; providerID: string }, port: number): Promise<string | undefined> {
    const client = await this.api.clientFor(cluster);
    return apiServerCertificateNotAfter(client.config, node.name, port, this.api.timeoutMs);
  }

  async listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined> {
    const client = await this.api.clientFor(cluster);
    return listEtcdMembers(client.config, node.name, await this.etcd.credentialsFor(cluster), this.api.timeoutMs);
  }

  async removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void> {
    const client = await this.api.clientFor(cluster);
    await removeEtcdMember(client.config, node.name, await this.etcd.credentialsFor(cluster), memberId, this.api.timeoutMs);
  }

  async listEtcdAlarms(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdAlarm[] | undefined> {
    const client = await this.api.clientFor(cluster);
    return listEtcdAlarms(client.config, node.name, await this.etcd.credentialsFor(cluster), this.api.timeoutMs);
  }

  async etcdStatus(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdStatus | undefined> {
    const client = await this.api.clientFor(cluster);
    return etcdStatus(client.config, node.name, await this.etcd.credentialsFor(cluster), this.api.timeoutMs);
  }

  async moveEtcdLeader(cluster: WorkloadClusterRef, node: EtcdNode, targetMemberId: string): Promise<void> {
    const client = await this.api.clientFor(cluster);
    await moveEtcdLeader(client.config, node.name, await this.etcd.credentialsFor(cluster), targetMemberId, this.api.timeoutMs);
  }

  async evictPod(cluster: WorkloadClusterRef, pod: { namespace: string; name: string }, options: { gracePeriodSeconds?: number }): Promise<EvictionOutcome> {
    const client = await this.api.clientFor(cluster);
    const what = `evicting Pod ${pod.namespace}/${pod.name} of ${describeCluster(cluster)}`;
    const body = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: pod.name, namespace: pod.namespace },
      deleteOptions: options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {},
    };
    try {
      // No classification before the refusals are read: a 429 here is a disruption budget, not an overloaded API.
      await this.api.withDeadline(what, () => client.core.createNamespacedPodEviction({ name: pod.name, namespace: pod.namespace, body }));
      return { result: 'Evicted' };
    } catch (error) {
      const refused = refusedEviction(error);
      if (refused) return refused;
      throw classifyWorkloadApiError(error, what) ?? error;
    }
  }

  /** Applies one object; a refusal the API explained comes back as its message, access and availability errors are thrown. */
  private async applyOne(client: ClusterClient, object: WorkloadObject, mode: ApplyMode): Promise<string | undefined> {
    const what = `applying ${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
    try {
      if (mode === 'CreateOnly') {
        await this.createIfAbsent(client, object, what);
        return undefined;
      }
      const current = await this.readIfPresent(client, object, what);
      if (!current) {
        await this.api.call(what, () => client.objects.create(object, undefined, undefined, FIELD_MANAGER));
        return undefined;
      }
      const resourceVersion = current.metadata?.resourceVersion;
      const patch = { ...object, metadata: { ...object.metadata, ...(resourceVersion ? { resourceVersion } : {}) } };
      await this.api.call(what, () => client.objects.patch(patch, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch));
      return undefined;
    } catch (error) {
      const typed = classifyWorkloadApiError(error, what);
      if (typed) throw typed;
      return `${what}: ${error instanceof ApiException ? `${error.code} ${statusMessage(error.body)}`.trim() : String(error)}`;
    }
  }

  private async createIfAbsent(client: ClusterClient, object: WorkloadObject, what: string): Promise<void> {
    try {
      await this.api.call(what, () => client.objects.create(object, undefined, undefined, FIELD_MANAGER));
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 409)) throw error;
    }
  }

  private async readIfPresent(client: ClusterClient, object: WorkloadObject, what: string): Promise<{ metadata?: { resourceVersion?: string } } | undefined> {
    try {
      return await this.api.call(what, () =>
        client.objects.read({ apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.metadata.name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) } }),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  }
}

function identityOf(object: WorkloadObject): ApplyFailure['object'] {
  return { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) };
}
