import { isRecord, stringAt } from '../../shared/contracts/json.js';

/** A condition as read from any object's status (v1beta2 `status.conditions`, v1beta1 `status.deprecated` ignored). */
export interface ShownCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export function conditionsOf(object: unknown): ShownCondition[] {
  const status = isRecord(object) ? object.status : undefined;
  const list = isRecord(status) && Array.isArray(status.conditions) ? status.conditions : [];
  return list.flatMap((c): ShownCondition[] => {
    const type = stringAt(c, 'type');
    const state = stringAt(c, 'status');
    if (!type || !state) return [];
    const reason = stringAt(c, 'reason');
    const message = stringAt(c, 'message');
    const since = stringAt(c, 'lastTransitionTime');
    return [{ type, status: state, ...(reason ? { reason } : {}), ...(message ? { message } : {}), ...(since ? { lastTransitionTime: since } : {}) }];
  });
}

/** The condition that says whether an object is ready: Available for Clusters and MachineDeployments, else Ready, else the other. */
export function readinessCondition(object: unknown): ShownCondition | undefined {
  const conditions = conditionsOf(object);
  const kind = stringAt(object, 'kind');
  const order = kind === 'Cluster' || kind === 'MachineDeployment' ? ['Available', 'Ready'] : ['Ready', 'Available'];
  for (const type of order) {
    const found = conditions.find((c) => c.type === type);
    if (found) return found;
  }
  return undefined;
}

/** READY column: the readiness condition's status, the v1beta1 `status.ready` flag, or `-`. */
export function readyText(object: unknown): string {
  const condition = readinessCondition(object);
  if (condition) return condition.status;
  const status = isRecord(object) ? object.status : undefined;
  if (isRecord(status) && typeof status.ready === 'boolean') return status.ready ? 'True' : 'False';
  return '-';
}

/** Why an object is not ready: the readiness condition's message when not True, else the first False condition's message. */
export function failingMessage(object: unknown): string {
  const readiness = readinessCondition(object);
  if (readiness && readiness.status !== 'True') return readiness.message ?? readiness.reason ?? '';
  const failing = conditionsOf(object).find((c) => c.status === 'False' && c.message);
  return failing?.message ?? '';
}
