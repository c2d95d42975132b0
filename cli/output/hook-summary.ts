/**
 * The lifecycle hooks line of `capless describe cluster`: hooks still pending on the Cluster
 * (`runtime.cluster.x-k8s.io/pending-hooks`), whether BeforeClusterDelete has passed
 * (`ok-to-delete`), and the hooks TopologyReconciled says are blocking.
 */

import { ANNOTATION_OK_TO_DELETE, ANNOTATION_PENDING_HOOKS } from '../../shared/contracts/object.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';

const BLOCKING_REASONS = new Set(['ClusterCreating', 'ClusterUpgrading', 'Deleting', 'ReconcileFailed']);

export function hookSummary(cluster: unknown): string {
  const lines: string[] = [];
  const pending = stringAt(cluster, 'metadata', 'annotations', ANNOTATION_PENDING_HOOKS);
  if (pending) lines.push(`Pending lifecycle hooks: ${pending.split(',').join(', ')}`);
  if (stringAt(cluster, 'metadata', 'annotations', ANNOTATION_OK_TO_DELETE) !== undefined) lines.push('BeforeClusterDelete passed (ok-to-delete)');
  const conditions = isRecord(cluster) && isRecord(cluster.status) && Array.isArray(cluster.status.conditions) ? cluster.status.conditions : [];
  const topology = conditions.find((c) => stringAt(c, 'type') === 'TopologyReconciled' && stringAt(c, 'status') === 'False');
  const reason = stringAt(topology, 'reason');
  const message = stringAt(topology, 'message');
  if (reason && BLOCKING_REASONS.has(reason) && message?.includes('hooks are blocking')) lines.push(`Blocking (${reason}): ${message}`);
  return lines.map((line) => `${line}\n`).join('');
}
