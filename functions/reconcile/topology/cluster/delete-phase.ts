/**
 * BeforeClusterDelete (Cluster API's topology cluster controller): a topology Cluster being
 * deleted asks the hook before anything is torn down and, once it passes, is marked
 * `runtime.cluster.x-k8s.io/ok-to-delete` (not asked again); a blocking answer holds the deletion with
 * TopologyReconciled=False, reason Deleting, and retries. Without extensions it passes at once.
 */

import { isRecord } from '../../../../shared/contracts/json.js';
import { ANNOTATION_OK_TO_DELETE } from '../../../../shared/contracts/object.js';
import { TopologyReason } from '../../../../shared/contracts/topology/well-known.js';
import type { ClusterScope } from '../../core/cluster/scope.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { deleteBlockedMessage } from '../../runtime/lifecycle/topology-messages.js';
import { type LifecycleHookAnswer, LifecycleHookFailed, lifecycleHooksOf } from './lifecycle-hooks.js';
import { HOOK_FAILED_REQUEUE_SECONDS } from './phase.js';
import { topologyFailedCondition } from './topology-condition.js';

export async function beforeClusterDeletePhase(s: ClusterScope): Promise<PhaseResult> {
  if (!isRecord(s.object.spec?.topology)) return {};
  const annotations = s.object.metadata.annotations ?? {};
  if (annotations[ANNOTATION_OK_TO_DELETE] !== undefined) return {};
  let answer: LifecycleHookAnswer;
  try {
    answer = await lifecycleHooksOf(s.ctx.providers).call({ hook: 'BeforeClusterDelete', cluster: s.object });
  } catch (error) {
    if (!(error instanceof LifecycleHookFailed)) throw error;
    s.conditions.push(topologyFailedCondition(TopologyReason.Deleting, `Cluster is deleting. ${error.message}`));
    return { stop: true, requeueAfterSeconds: HOOK_FAILED_REQUEUE_SECONDS };
  }
  if (answer.retryAfterSeconds === 0) {
    // Cluster API marks the Cluster ok-to-delete before tearing anything down; the hook is not asked again.
    s.object = await s.ctx.store.update({ ...s.object, metadata: { ...s.object.metadata, annotations: { ...annotations, [ANNOTATION_OK_TO_DELETE]: '' } } });
    s.desired = { ...s.desired, metadata: { ...s.desired.metadata, annotations: { ...(s.desired.metadata.annotations ?? {}), [ANNOTATION_OK_TO_DELETE]: '' }, resourceVersion: s.object.metadata.resourceVersion } };
    return {};
  }
  s.conditions.push(topologyFailedCondition(TopologyReason.Deleting, deleteBlockedMessage([{ hook: 'BeforeClusterDelete', message: answer.message ?? '' }])));
  return { stop: true, requeueAfterSeconds: answer.retryAfterSeconds };
}
