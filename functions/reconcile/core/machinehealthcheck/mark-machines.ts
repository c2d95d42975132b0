/**
 * What a MachineHealthCheck writes on its Machines: `HealthCheckSucceeded`, and on an unhealthy
 * one whose remediation is allowed `OwnerRemediated=False` (the owner's cue to remediate). Written
 * through the status path only when a condition changes, re-reading on conflicts.
 */

import { type Condition, type ConditionInput, findCondition, removeCondition, setCondition } from '../../../../shared/contracts/conditions.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { updateConditions } from '../../engine/references/update-conditions.js';
import type { Verdict } from './health-rules.js';
import {
  CONDITION_EXTERNALLY_REMEDIATED,
  CONDITION_HEALTH_CHECK_SUCCEEDED,
  CONDITION_OWNER_REMEDIATED,
  REASON_WAITING_FOR_REMEDIATION,
} from './well-known.js';


/**
 * How an unhealthy Machine is remediated: by its owner (OwnerRemediated), or by an external
 * remediation request made from the MachineHealthCheck's template (ExternallyRemediated, whose
 * reason says whether the request exists).
 */
export type RemediationMode = { by: 'owner' } | { by: 'external'; reason: string; message: string };

/** The Machine's conditions after this check: pure. */
export function markedConditions(current: readonly Condition[], verdict: Verdict, remediationAllowed: boolean, now: string, mode: RemediationMode = { by: 'owner' }): Condition[] {
  if (verdict.healthy) {
    const healthy: ConditionInput = { type: CONDITION_HEALTH_CHECK_SUCCEEDED, status: 'True', reason: 'Succeeded' };
    return removeCondition(removeCondition(setCondition(current, healthy, now), CONDITION_OWNER_REMEDIATED), CONDITION_EXTERNALLY_REMEDIATED);
  }
  let next = setCondition(current, { type: CONDITION_HEALTH_CHECK_SUCCEEDED, status: 'False', reason: verdict.reason, message: verdict.message }, now);
  if (!remediationAllowed) return next;
  if (mode.by === 'external') {
    return setCondition(next, { type: CONDITION_EXTERNALLY_REMEDIATED, status: 'False', reason: mode.reason, message: mode.message }, now);
  }
  // The owner may already have moved OwnerRemediated on (e.g. to say it is deleting the Machine).
  if (!findCondition(next, CONDITION_OWNER_REMEDIATED)) {
    next = setCondition(next, { type: CONDITION_OWNER_REMEDIATED, status: 'False', reason: REASON_WAITING_FOR_REMEDIATION, message: 'Waiting for remediation' }, now);
  }
  return next;
}

export async function markMachine(
  store: ObjectStore,
  machine: StoredObject,
  verdict: Verdict,
  remediationAllowed: boolean,
  now: string,
  mode: RemediationMode = { by: 'owner' },
): Promise<void> {
  await updateConditions(store, machine, (current) => markedConditions(current, verdict, remediationAllowed, now, mode));
}
