/** Kind schemas and their inferred types, for reconcilers and the API. */

export * from './bootstrap/kubeadm-config.js';
export * from './bootstrap/kubeadm-config-spec.js';
export * from './catalog.js';
export * from './clusterctl/clusterctl.js';
export * from './common/envelope.js';
export * from './common/metadata.js';
export * from './common/names.js';
export * from './common/references.js';
export * from './common/selector.js';
export * from './common/status.js';
export * from './controlplane/kubeadm-control-plane.js';
export * from './core/cluster.js';
export * from './core/health-check.js';
export * from './core/machine.js';
export * from './core/machine-deployment.js';
export * from './core/machine-health-check.js';
export * from './core/machine-set.js';
export * from './core/machine-spec.js';
export * from './core/replica-status.js';
export * from './corev1/config-map.js';
export * from './corev1/secret.js';
export * from './groups.js';
export * from './infrastructure/docker.js';
export * from './infrastructure/in-memory.js';
export * from './ipam/ip-address.js';
export * from './runtime/extension-config.js';
