/** Mirroring a provider's `Ready` condition into the owner's condition (capi-contract.md §2 rules). */

import type { ConditionInput, ConditionStatus } from '../conditions.js';
import { isRecord } from '../json.js';
import type { KubeObject } from '../object.js';

/** The provider's `Ready` condition, read leniently (v1beta1 conditions may lack a reason). */
export function providerReadyCondition(obj: KubeObject): { status: ConditionStatus; reason?: string; message?: string } | undefined {
  const raw = obj.status?.conditions;
  if (!Array.isArray(raw)) return undefined;
  const found = raw.find((c) => isRecord(c) && c.type === 'Ready');
  if (!isRecord(found)) return undefined;
  const status = found.status;
  if (status !== 'True' && status !== 'False' && status !== 'Unknown') return undefined;
  return {
    status,
    ...(typeof found.reason === 'string' && found.reason ? { reason: found.reason } : {}),
    ...(typeof found.message === 'string' && found.message ? { message: found.message } : {}),
  };
}

/**
 * The owner condition `type` mirroring the provider's `Ready`: when the provider reports one, its
 * status/reason/message are copied; otherwise `fallback` (what the core derived from the contract).
 * A provider that is done (`done`) but reports no Ready condition is True.
 */
export function mirrorReadyCondition(
  obj: KubeObject,
  type: string,
  fallback: { done: boolean; reason: string; message?: string },
): ConditionInput {
  const ready = providerReadyCondition(obj);
  if (ready) {
    return {
      type,
      status: ready.status,
      reason: ready.reason ?? (ready.status === 'True' ? 'Ready' : 'NotReady'),
      ...(ready.message ? { message: ready.message } : {}),
    };
  }
  return fallback.done
    ? { type, status: 'True', reason: 'Ready' }
    : { type, status: 'False', reason: fallback.reason, ...(fallback.message ? { message: fallback.message } : {}) };
}
