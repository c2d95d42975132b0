/**
 * client-node clients of workload clusters, one per cluster, built from the admin kubeconfig
 * Cluster API keeps in the `<cluster>-kubeconfig` Secret (`data.value`) and kept while the
 * Secret's resourceVersion stays the same (a rotated kubeconfig builds new ones); and the call
 * plumbing every request goes through: a deadline (a transient error past it) and the
 * classification of failures into the port's typed errors.
 */
import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, StorageV1Api } from '@kubernetes/client-node';
import { recordAt, stringAt } from '../../contracts/json.js';
import type { ObjectStore } from '../../ports/object-store.js';
import { type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';
import { classifyWorkloadApiError } from './workload-api-errors.js';

export const KUBECONFIG_SECRET_DATA_KEY = 'value';

export interface ClusterClient {
  resourceVersion: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  storage: StorageV1Api;
  /** For what the typed clients do not cover (port-forwards). */
  config: KubeConfig;
  objects: KubernetesObjectApi;
}

export function describeCluster(cluster: WorkloadClusterRef): string {
  return `${cluster.namespace}/${cluster.name}`;
}

export class WorkloadApiClients {
  private readonly clients = new Map<string, ClusterClient>();

  constructor(
    private readonly store: ObjectStore,
    readonly pageSize: number,
    readonly timeoutMs: number,
  ) {}

  /** One page's parameters. */
  page(continueToken: string | undefined): { limit: number; _continue?: string } {
    return { limit: this.pageSize, ...(continueToken ? { _continue: continueToken } : {}) };
  }

  /** The cached client for the cluster's current kubeconfig Secret, or a new one. */
  async clientFor(cluster: WorkloadClusterRef): Promise<ClusterClient> {
    const name = `${cluster.name}-kubeconfig`;
    const secret = await this.store.get({ group: '', kind: 'Secret', namespace: cluster.namespace, name });
    if (!secret) throw new WorkloadClusterUnavailableError('KubeconfigNotFound', `waiting for Secret ${cluster.namespace}/${name} with the kubeconfig of Cluster ${describeCluster(cluster)}`);
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
      config,
      objects: KubernetesObjectApi.makeApiClient(config),
    };
    this.clients.set(key, client);
    return client;
  }

  /** One API call with a deadline; its errors classified into the port's typed ones where they are. */
  async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await this.withDeadline(what, request);
    } catch (error) {
      throw classifyWorkloadApiError(error, what) ?? error;
    }
  }

  /** One API call that gives up (a transient error) after the timeout. */
  async withDeadline<T>(what: string, request: () => Promise<T>): Promise<T> {
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
