/**
 * The workload-cluster objects the control plane keeps in step (kubeadm-config, kube-proxy): a
 * ConfigMap's data read and its keys set, and a DaemonSet's or Deployment's container image read
 * and set (a strategic merge patch on the container's name), each write at the resourceVersion
 * read; a 409 or 404 on the write is `WorkloadClusterConflictError`.
 */
import { ApiException, PatchStrategy, setHeaderOptions, type V1DaemonSet, type V1Deployment } from '@kubernetes/client-node';
import { type ConfigMapRef, type ContainerImage, type PodControllerRef, type WorkloadClusterRef, WorkloadClusterConflictError, type WorkloadConfigMap } from '../../ports/workload-cluster.js';
import { type ClusterClient, describeCluster, type WorkloadApiClients } from './workload-api-clients.js';
import { statusMessage } from './workload-api-errors.js';

/** The field manager capless's writes into workload clusters are recorded under. */
export const FIELD_MANAGER = 'capless';

function conflictOrRethrow(error: unknown, what: string): never {
  if (error instanceof ApiException && (error.code === 409 || error.code === 404)) throw new WorkloadClusterConflictError(`${what}: ${statusMessage(error.body)}`, { cause: error });
  throw error;
}

export async function readConfigMap(api: WorkloadApiClients, client: ClusterClient, cluster: WorkloadClusterRef, configMap: ConfigMapRef): Promise<WorkloadConfigMap | undefined> {
  try {
    const read = await api.call(`reading ConfigMap ${configMap.namespace}/${configMap.name} of ${describeCluster(cluster)}`, () => client.core.readNamespacedConfigMap(configMap));
    return { data: { ...read.data }, resourceVersion: read.metadata?.resourceVersion ?? '' };
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return undefined;
    throw error;
  }
}

export async function writeConfigMapData(api: WorkloadApiClients, client: ClusterClient, cluster: WorkloadClusterRef, configMap: ConfigMapRef, data: Record<string, string>, resourceVersion: string): Promise<void> {
  const what = `writing ConfigMap ${configMap.namespace}/${configMap.name} of ${describeCluster(cluster)}`;
  const body = { metadata: { resourceVersion }, data };
  try {
    await api.call(what, () => client.core.patchNamespacedConfigMap({ ...configMap, body, fieldManager: FIELD_MANAGER }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
  } catch (error) {
    conflictOrRethrow(error, what);
  }
}

export async function readContainerImage(api: WorkloadApiClients, client: ClusterClient, cluster: WorkloadClusterRef, controller: PodControllerRef, container: string): Promise<ContainerImage | undefined> {
  const what = `reading ${controller.kind} ${controller.namespace}/${controller.name} of ${describeCluster(cluster)}`;
  const { namespace, name } = controller;
  try {
    const read = await api.call<V1DaemonSet | V1Deployment>(what, () =>
      controller.kind === 'DaemonSet' ? client.apps.readNamespacedDaemonSet({ namespace, name }) : client.apps.readNamespacedDeployment({ namespace, name }),
    );
    const image = read.spec?.template.spec?.containers.find((c) => c.name === container)?.image;
    return image ? { image, resourceVersion: read.metadata?.resourceVersion ?? '' } : undefined;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return undefined;
    throw error;
  }
}

export async function setContainerImage(api: WorkloadApiClients, client: ClusterClient, cluster: WorkloadClusterRef, controller: PodControllerRef, container: string, image: string, resourceVersion: string): Promise<void> {
  const what = `setting the ${container} image of ${controller.kind} ${controller.namespace}/${controller.name} of ${describeCluster(cluster)}`;
  const { namespace, name } = controller;
  const body = { metadata: { resourceVersion }, spec: { template: { spec: { containers: [{ name: container, image }] } } } };
  const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
  try {
    await api.call<V1DaemonSet | V1Deployment>(what, () =>
      controller.kind === 'DaemonSet'
        ? client.apps.patchNamespacedDaemonSet({ namespace, name, body, fieldManager: FIELD_MANAGER }, strategic)
        : client.apps.patchNamespacedDeployment({ namespace, name, body, fieldManager: FIELD_MANAGER }, strategic),
    );
  } catch (error) {
    conflictOrRethrow(error, what);
  }
}
