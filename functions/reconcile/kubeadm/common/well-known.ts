/** Labels, annotations and names the kubeadm providers share (capi-contract.md §2.2, kubeadm-bootstrap.md §3). */

export { LABEL_CONTROL_PLANE } from '../../../../shared/contracts/object.js';
export const LABEL_CONTROL_PLANE_NAME = 'cluster.x-k8s.io/control-plane-name';
export const ANNOTATION_DELETE_MACHINE = 'cluster.x-k8s.io/delete-machine';
export { ANNOTATION_CLONED_FROM_GROUPKIND, ANNOTATION_CLONED_FROM_NAME, CLUSTER_SECRET_TYPE } from '../../../../shared/contracts/object.js';

export const CORE_GROUP = 'cluster.x-k8s.io';
export const CORE_API_VERSION = 'cluster.x-k8s.io/v1beta2';
export const BOOTSTRAP_GROUP = 'bootstrap.cluster.x-k8s.io';
export const BOOTSTRAP_API_VERSION = 'bootstrap.cluster.x-k8s.io/v1beta2';
export const CONTROL_PLANE_GROUP = 'controlplane.cluster.x-k8s.io';

/** Requeue while the control plane is not initialized (CABPK's 30 s). */
export const WAIT_FOR_INIT_SECONDS = 30;

export function kubeconfigSecretName(clusterName: string): string {
  return `${clusterName}-kubeconfig`;
}

export function initLockName(clusterName: string): string {
  return `${clusterName}-lock`;
}
