/** API groups capless serves kinds in. */

export const CORE_GROUP = '';
export const CLUSTER_GROUP = 'cluster.x-k8s.io';
export const BOOTSTRAP_GROUP = 'bootstrap.cluster.x-k8s.io';
export const CONTROL_PLANE_GROUP = 'controlplane.cluster.x-k8s.io';
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';
export const IPAM_GROUP = 'ipam.cluster.x-k8s.io';
export const RUNTIME_GROUP = 'runtime.cluster.x-k8s.io';
export const CLUSTERCTL_GROUP = 'clusterctl.cluster.x-k8s.io';
export const ADDONS_GROUP = 'addons.cluster.x-k8s.io';

/** Groups whose v1beta1 objects are converted field by field to v1beta2 on admission. */
export const CONVERTED_GROUPS: readonly string[] = [CLUSTER_GROUP, BOOTSTRAP_GROUP, CONTROL_PLANE_GROUP];
