/**
 * The WorkloadCluster of real clusters: `@kubernetes/client-node` with the admin kubeconfig
 * Cluster API keeps in the `<cluster>-kubeconfig` Secret (`data.value`). One client per cluster,
 * kept while the Secret's resourceVersion stays the same (a rotated kubeconfig builds a new one).
 *
 * - Nodes are listed page by page and filtered on `spec.providerID` (kube-apiserver has no field
 *   selector for it), as Cluster API's node reference lookup does.
 * - Objects are created (`CreateOnly`) or read and merge-patched at the read resourceVersion
 *   (`CreateOrUpdate`), the way ClusterResourceSet applies its resources.
 * - A Node's labels, annotations and taints are merge-patched at the resourceVersion the Machine
 *   reconcile read (a Node changed meanwhile is a 409: `WorkloadClusterConflictError`, retried).
 * - A drain lists the Pods on a Node (field selector `spec.nodeName`, page by page), the
 *   Namespaces, VolumeAttachments and PersistentVolumes, reads DaemonSets, and evicts through the Pods' `eviction` subresource; a refused
 *   eviction (429 of a disruption budget, a terminating namespace, any other 4xx) is an outcome,
 *   not an error.
 * - No Secret yet, connection failures, timeouts and 5xx are `WorkloadClusterUnavailableError`
 *   (transient); 401/403 are `WorkloadClusterAccessDeniedError`.
 */
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig, StorageV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { recordAt, stringAt } from '../../contracts/json.js';
import type { ObjectStore } from '../../ports/object-store.js';
import {
  type ApplyFailure,
  type ApplyMode,
  type EvictionOutcome,
  type NodePatch,
  type WorkloadCluster,
  type WorkloadClusterRef,
  type WorkloadNamespace,
  type WorkloadNode,
  type WorkloadObject,
  type WorkloadPersistentVolume,
  type WorkloadPod,
  type WorkloadVolumeAttachment,
  WorkloadClusterConflictError,
  WorkloadClusterUnavailableError,
} from '../../ports/workload-cluster.js';
import { allPages } from './all-pages.js';
import { workloadNodeOf } from './node-mapping.js';
import { persistentVolumeOfV1, refusedEviction, volumeAttachmentOf, workloadPodOfV1 } from './pod-mapping.js';
import { classifyWorkloadApiError, statusMessage } from './workload-api-errors.js';

export const KUBECONFIG_SECRET_DATA_KEY = 'value';
/** Cluster API's field manager for what it writes into workload clusters. */
export const FIELD_MANAGER = 'capless';

export interface KubeconfigWorkloadClusterOptions {
  store: ObjectStore;
  /** Nodes per list page. @default 100 */
  pageSize?: number;
  /** Each API call gives up after this long (a transient error). @default 10000 */
  timeoutMs?: number;
}

interface ClusterClient {
  resourceVersion: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  storage: StorageV1Api;
  objects: KubernetesObjectApi;
}

export class KubeconfigWorkloadCluster implements WorkloadCluster {
  private readonly clients = new Map<string, ClusterClient>();
  private readonly pageSize: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: KubeconfigWorkloadClusterOptions) {
    this.pageSize = options.pageSize ?? 100;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const client = await this.clientFor(cluster);
    let continueToken: string | undefined;
    do {
      const page = await this.call(`listing the Nodes of ${describe(cluster)}`, () =>
        client.core.listNode(this.page(continueToken)),
      );
      const node = page.items.find((n) => n.spec?.providerID === providerID);
      if (node) return workloadNodeOf(node);
      continueToken = page.metadata?._continue || undefined;
    } while (continueToken);
    return undefined;
  }

  async applyObjects(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], options: { mode: ApplyMode }): Promise<ApplyFailure[]> {
    const client = await this.clientFor(cluster);
    const failures: ApplyFailure[] = [];
    for (const object of objects) {
      const failure = await this.applyOne(client, object, options.mode);
      if (failure) failures.push({ object: identityOf(object), message: failure });
    }
    return failures;
  }

  async patchNode(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): Promise<void> {
    const client = await this.clientFor(cluster);
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
    const what = `patching Node ${nodeName} of ${describe(cluster)}`;
    try {
      await this.call(what, () => client.core.patchNode({ name: nodeName, body, fieldManager: FIELD_MANAGER }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) throw new WorkloadClusterConflictError(`${what}: ${statusMessage(error.body)}`, { cause: error });
      throw error;
    }
  }

  async deleteNode(cluster: WorkloadClusterRef, nodeName: string): Promise<void> {
    const client = await this.clientFor(cluster);
    try {
      await this.call(`deleting Node ${nodeName} of ${describe(cluster)}`, () => client.core.deleteNode({ name: nodeName }));
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
    }
  }

  async listPodsOnNode(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadPod[]> {
    const client = await this.clientFor(cluster);
    const pods = await allPages((continueToken) =>
      this.call(`listing the Pods on Node ${nodeName} of ${describe(cluster)}`, () => client.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}`, ...this.page(continueToken) })),
    );
    return pods.flatMap((pod) => workloadPodOfV1(pod) ?? []);
  }

  async listVolumeAttachments(cluster: WorkloadClusterRef, nodeName: string): Promise<WorkloadVolumeAttachment[]> {
    const client = await this.clientFor(cluster);
    const attachments = await allPages((continueToken) =>
      this.call(`listing the VolumeAttachments of ${describe(cluster)}`, () => client.storage.listVolumeAttachment(this.page(continueToken))),
    );
    return attachments.flatMap((va) => (va.status?.attached && va.spec.nodeName === nodeName && va.metadata?.name ? [volumeAttachmentOf(va.metadata.name, va.spec.source.persistentVolumeName)] : []));
  }

  async listPersistentVolumes(cluster: WorkloadClusterRef): Promise<WorkloadPersistentVolume[]> {
    const client = await this.clientFor(cluster);
    const volumes = await allPages((continueToken) =>
      this.call(`listing the PersistentVolumes of ${describe(cluster)}`, () => client.core.listPersistentVolume(this.page(continueToken))),
    );
    return volumes.flatMap((pv) => persistentVolumeOfV1(pv) ?? []);
  }

  async listNamespaces(cluster: WorkloadClusterRef): Promise<WorkloadNamespace[]> {
    const client = await this.clientFor(cluster);
    const list = await this.call(`listing the Namespaces of ${describe(cluster)}`, () => client.core.listNamespace());
    return list.items.flatMap((ns) => (ns.metadata?.name ? [{ name: ns.metadata.name, labels: { ...ns.metadata.labels } }] : []));
  }

  async daemonSetExists(cluster: WorkloadClusterRef, namespace: string, name: string): Promise<boolean> {
    const client = await this.clientFor(cluster);
    try {
      await this.call(`reading DaemonSet ${namespace}/${name} of ${describe(cluster)}`, () => client.apps.readNamespacedDaemonSet({ namespace, name }));
      return true;
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return false;
      throw error;
    }
  }

  async evictPod(cluster: WorkloadClusterRef, pod: { namespace: string; name: string }, options: { gracePeriodSeconds?: number }): Promise<EvictionOutcome> {
    const client = await this.clientFor(cluster);
    const what = `evicting Pod ${pod.namespace}/${pod.name} of ${describe(cluster)}`;
    const body = {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: pod.name, namespace: pod.namespace },
      deleteOptions: options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {},
    };
    try {
      // No classification before the refusals are read: a 429 here is a disruption budget, not an overloaded API.
      await this.withDeadline(what, () => client.core.createNamespacedPodEviction({ name: pod.name, namespace: pod.namespace, body }));
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
        await this.call(what, () => client.objects.create(object, undefined, undefined, FIELD_MANAGER));
        return undefined;
      }
      const resourceVersion = current.metadata?.resourceVersion;
      const patch = { ...object, metadata: { ...object.metadata, ...(resourceVersion ? { resourceVersion } : {}) } };
      await this.call(what, () => client.objects.patch(patch, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch));
      return undefined;
    } catch (error) {
      const typed = classifyWorkloadApiError(error, what);
      if (typed) throw typed;
      return `${what}: ${error instanceof ApiException ? `${error.code} ${statusMessage(error.body)}`.trim() : String(error)}`;
    }
  }

  private async createIfAbsent(client: ClusterClient, object: WorkloadObject, what: string): Promise<void> {
    try {
      await this.call(what, () => client.objects.create(object, undefined, undefined, FIELD_MANAGER));
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 409)) throw error;
    }
  }

  private async readIfPresent(client: ClusterClient, object: WorkloadObject, what: string): Promise<{ metadata?: { resourceVersion?: string } } | undefined> {
    try {
      return await this.call(what, () =>
        client.objects.read({ apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.metadata.name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) } }),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  }

  /** One page's parameters. */
  private page(continueToken: string | undefined): { limit: number; _continue?: string } {
    return { limit: this.pageSize, ...(continueToken ? { _continue: continueToken } : {}) };
  }

  /** The cached client for the cluster's current kubeconfig Secret, or a new one. */
  private async clientFor(cluster: WorkloadClusterRef): Promise<ClusterClient> {
    const name = `${cluster.name}-kubeconfig`;
    const secret = await this.options.store.get({ group: '', kind: 'Secret', namespace: cluster.namespace, name });
    if (!secret) throw new WorkloadClusterUnavailableError('KubeconfigNotFound', `waiting for Secret ${cluster.namespace}/${name} with the kubeconfig of Cluster ${describe(cluster)}`);
    const key = `${cluster.namespace}/${cluster.name}`;
    const cached = this.clients.get(key);
    if (cached && cached.resourceVersion === secret.metadata.resourceVersion) return cached;

    const encoded = stringAt(recordAt(secret, 'data'), KUBECONFIG_SECRET_DATA_KEY);
    if (!encoded) throw new WorkloadClusterUnavailableError('KubeconfigInvalid', `Secret ${cluster.namespace}/${name} has no data.${KUBECONFIG_SECRET_DATA_KEY}`);
    const config = new KubeConfig();
    try {
      config.loadFromString(Buffer.from(encoded, 'base64').toString('utf8'));
    } catch (error) {
      throw new WorkloadClusterUnavailableError('KubeconfigInvalid', `Secret ${cluster.namespace}/${name} does not hold a kubeconfig: ${String(error)}`, { cause: error });
    }
    if (!config.getCurrentCluster()) throw new WorkloadClusterUnavailableError('KubeconfigInvalid', `the kubeconfig in Secret ${cluster.namespace}/${name} names no current cluster`);
    const client: ClusterClient = {
      resourceVersion: secret.metadata.resourceVersion,
      core: config.makeApiClient(CoreV1Api),
      apps: config.makeApiClient(AppsV1Api),
      storage: config.makeApiClient(StorageV1Api),
      objects: KubernetesObjectApi.makeApiClient(config),
    };
    this.clients.set(key, client);
    return client;
  }

  /** One API call with a deadline; its errors classified into the port's typed ones where they are. */
  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await this.withDeadline(what, request);
    } catch (error) {
      throw classifyWorkloadApiError(error, what) ?? error;
    }
  }

  /** One API call that gives up (a transient error) after the timeout. */
  private async withDeadline<T>(what: string, request: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([request(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function describe(cluster: WorkloadClusterRef): string {
  return `${cluster.namespace}/${cluster.name}`;
}

function identityOf(object: WorkloadObject): ApplyFailure['object'] {
  return { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) };
}
