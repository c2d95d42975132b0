/** metav1.Condition and pure helpers to set and read them. */

import { isRecord } from './json.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export interface ConditionInput {
  type: string;
  status: ConditionStatus;
  reason: string;
  message?: string;
}

/**
 * Returns a new list with `input` set. lastTransitionTime changes only when the status
 * changes, as in apimachinery's meta.SetStatusCondition.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  input: ConditionInput,
  now: string,
  observedGeneration?: number,
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === input.type);
  const previous = index === -1 ? undefined : list[index];
  const next: Condition = {
    type: input.type,
    status: input.status,
    reason: input.reason,
    ...(input.message ? { message: input.message } : {}),
    lastTransitionTime:
      previous && previous.status === input.status ? previous.lastTransitionTime : now,
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
  };
  if (index === -1) list.push(next);
  else list[index] = next;
  return list;
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

export function removeCondition(conditions: readonly Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** Reads `status.conditions` of any object without trusting its shape. */
export function conditionsOf(status: Record<string, unknown> | undefined): Condition[] {
  const raw = status?.conditions;
  if (!Array.isArray(raw)) return [];
  return raw.filter(isCondition);
}

function isCondition(value: unknown): value is Condition {
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    (value.status === 'True' || value.status === 'False' || value.status === 'Unknown') &&
    typeof value.reason === 'string'
  );
}
