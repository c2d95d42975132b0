/** Runtime SDK wire types, `hooks.runtime.cluster.x-k8s.io/v1alpha1`, shared by the hook client and hosted extensions. */
export * from './catalog.js';
export * from './codec.js';
export * from './common.js';
export * from './discovery.js';
export * from './lifecycle.js';
export * from './topology-mutation.js';
