/**
 * The workload cluster's kube-proxy follows the control plane's version (Cluster API's
 * UpdateKubeProxyImageInfo): kubeadm init installs the `kube-system/kube-proxy` DaemonSet at the
 * first version, and nothing else moves it, since Cluster API replaces Machines instead of running
 * `kubeadm upgrade`. Once the control plane has nothing to scale or roll out, the `kube-proxy`
 * container's image is re-tagged with the control plane's version (and moved to the spec's
 * clusterConfiguration.imageRepository when set), written only when it changes, at the
 * DaemonSet's resourceVersion.
 *
 * Skipped with the control plane's `controlplane.cluster.x-k8s.io/skip-kube-proxy` annotation, and
 * when there is no such DaemonSet or container (a cluster without kube-proxy). A workload cluster
 * that does not answer is looked at again on the next reconcile (Cluster API fails this one). An
 * image pinned by digest cannot be re-tagged: Cluster API fails the reconcile on it; capless logs
 * it and goes on, so the control plane's other work is not held by it.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import { withImageRepository, withImageTag } from '../../../../shared/contracts/container-image.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import { type ContainerImage, isWorkloadClusterError, type PodControllerRef } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { addonSkips } from './annotations.js';
import { workloadClusterRefOf } from './etcd-leadership.js';
import type { KcpScope } from './scope.js';

export const KUBE_PROXY: PodControllerRef = { kind: 'DaemonSet', namespace: 'kube-system', name: 'kube-proxy' };
export const KUBE_PROXY_CONTAINER = 'kube-proxy';

/** The image kube-proxy should run: the control plane's version, in its image repository when one is set. */
export function kubeProxyImage(current: string, version: string, imageRepository: string | undefined): { image: string } | { error: string } {
  const retagged = withImageTag(current, version);
  if ('error' in retagged || !imageRepository) return retagged;
  return withImageRepository(retagged.image, imageRepository);
}

export async function syncKubeProxyImage(scope: KcpScope): Promise<PhaseResult | undefined> {
  const cluster = workloadClusterRefOf(scope);
  if (!cluster || !scope.initialized || isDeleting(scope.object) || scope.plan?.type !== 'none' || addonSkips(scope.object).kubeProxy) return undefined;
  const workload = workloadClusterOf(scope.ctx);
  let current: ContainerImage | undefined;
  try {
    current = await workload.readContainerImage(cluster, KUBE_PROXY, KUBE_PROXY_CONTAINER);
  } catch (error) {
    if (!isWorkloadClusterError(error)) throw error;
    scope.ctx.logger.warn('kube-proxy not checked: the workload cluster does not answer', { error: error.message });
    return undefined;
  }
  if (!current) return undefined;
  const imageRepository = stringAt(scope.spec.kubeadmConfigSpec, 'clusterConfiguration', 'imageRepository') || undefined;
  const desired = kubeProxyImage(current.image, scope.spec.version, imageRepository);
  if ('error' in desired) {
    scope.ctx.logger.info(`kube-proxy not updated: ${desired.error}`);
    return undefined;
  }
  if (desired.image === current.image) return undefined;
  await workload.setContainerImage(cluster, KUBE_PROXY, KUBE_PROXY_CONTAINER, desired.image, current.resourceVersion);
  scope.ctx.logger.info(`kube-proxy image set to ${desired.image}`);
  return undefined;
}
