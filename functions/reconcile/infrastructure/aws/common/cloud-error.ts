/**
 * A cloud call failed: the phase writes a condition carrying AWS's error code and asks to run
 * again with backoff. The backoff is re-derived from the condition itself (doubling the time the
 * same failure has already lasted, 5 s to 5 min; at least 30 s when throttled), so it needs no
 * counter and survives crashes. Nothing else is done on a failure: in particular throttling
 * never leads to another launch, because the launch path always looks the instance up first.
 */

import { type Condition, conditionsOf } from '../../../../../shared/contracts/conditions.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { PhaseResult, Scope } from '../../../engine/skeleton/types.js';

const MIN_BACKOFF_SECONDS = 5;
const MAX_BACKOFF_SECONDS = 300;
const THROTTLED_MIN_SECONDS = 30;

export function backoffSeconds(previous: Condition | undefined, reason: string, now: Date, throttled: boolean): number {
  const floor = throttled ? THROTTLED_MIN_SECONDS : MIN_BACKOFF_SECONDS;
  if (previous?.status !== 'False' || previous.reason !== reason) return floor;
  const lasted = Math.max(0, (now.getTime() - Date.parse(previous.lastTransitionTime)) / 1000);
  return Math.min(MAX_BACKOFF_SECONDS, Math.max(floor, Math.ceil(lasted * 2)));
}

/**
 * Turns a CloudApiError into `type=False, reason` with the AWS code in the message and a requeue;
 * rethrows anything else (a bug or a store failure: the work queue's own backoff handles it).
 */
export function cloudFailure(scope: Scope, type: string, reason: string, error: unknown): PhaseResult {
  if (!isCloudApiError(error)) throw error;
  const previous = conditionsOf(scope.object.status).find((c) => c.type === type);
  scope.conditions.push({ type, status: 'False', reason, message: error.message });
  return { stop: true, requeueAfterSeconds: backoffSeconds(previous, reason, scope.ctx.clock.now(), error.throttled) };
}
