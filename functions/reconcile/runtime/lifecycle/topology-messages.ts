/**
 * What TopologyReconciled says about hooks (Cluster API core/reconcilers/topology/cluster/status.go,
 * api/core/v1beta2/cluster_types.go): the reasons and the messages naming the blocking hooks.
 */

import type { LifecycleHook } from '../../../../shared/contracts/hooks/index.js';

export const TOPOLOGY_RECONCILED = 'TopologyReconciled';
export const REASON_CLUSTER_CREATING = 'ClusterCreating';
export const REASON_CLUSTER_UPGRADING = 'ClusterUpgrading';
export const REASON_DELETING = 'Deleting';
export const REASON_RECONCILE_FAILED = 'ReconcileFailed';

export interface BlockingHook {
  hook: LifecycleHook;
  message: string;
}

function list(blocking: readonly BlockingHook[], separator: string): string {
  return blocking.map((b) => `${b.hook}${b.message ? `: ${b.message}` : ''}`).join(separator);
}

export function creationBlockedMessage(blocking: readonly BlockingHook[]): string {
  return `Following hooks are blocking Cluster topology creation: ${list(blocking, '; ')}`;
}

export function upgradeBlockedMessage(blocking: readonly BlockingHook[]): string {
  return `Following hooks are blocking upgrade: ${list(blocking, '; ')}`;
}

export function deleteBlockedMessage(blocking: readonly BlockingHook[]): string {
  return `Cluster is deleting. Following hooks are blocking delete: ${list(blocking, '; ')}`;
}
