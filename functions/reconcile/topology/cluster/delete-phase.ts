/**
 * BeforeClusterDelete (Cluster API's topology cluster controller): a topology Cluster being
 * deleted asks the hook before anything is torn down; a blocking answer holds the deletion with
 * TopologyReconciled=False, reason Deleting, and retries. Without extensions it passes at once.
 */

import { isRecord } from '../../../../shared/contracts/json.js';
import { TopologyReason } from '../../../../shared/contracts/topology/well-known.js';
import type { ClusterScope } from '../../core/cluster/scope.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { lifecycleHooksOf } from './lifecycle-hooks.js';
import { topologyFailedCondition } from './topology-condition.js';

export async function beforeClusterDeletePhase(s: ClusterScope): Promise<PhaseResult> {
  if (!isRecord(s.object.spec?.topology)) return {};
  const answer = await lifecycleHooksOf(s.ctx.providers).call({ hook: 'BeforeClusterDelete', cluster: s.object });
  if (answer.retryAfterSeconds > 0) {
    s.conditions.push(
      topologyFailedCondition(TopologyReason.Deleting, `Cluster is deleting. Following hooks are blocking delete: BeforeClusterDelete: ${answer.message ?? ''}`),
    );
    return { stop: true, requeueAfterSeconds: answer.retryAfterSeconds };
  }
  return {};
}
