/**
 * The fake workload API's answer to a Pod's eviction, as kube-apiserver's eviction subresource
 * gives it: 403 (cause NamespaceTerminating) in a terminating namespace; 429 with the budget's
 * cause when a PodDisruptionBudget over the Pod allows no disruption (`status.disruptionsAllowed`,
 * which a test sets as the disruption controller would); otherwise the budget is spent and the
 * eviction granted. Finished, pending and terminating Pods ignore budgets.
 */
import { isRecord, stringEntriesOf } from '../../shared/contracts/json.js';
import { labelSelectorSchema } from '../../shared/contracts/schemas/common/selector.js';
import { selectorMatches } from '../../shared/contracts/validation/label-selector.js';

export type StoredItem = Record<string, unknown> & { metadata: Record<string, unknown> & { name: string } };

export function answerEviction(pod: StoredItem, namespace: string, ns: StoredItem | undefined, budgets: readonly StoredItem[]): { code: number; body: unknown } {
  const name = pod.metadata.name;
  if (isRecord(ns?.status) && ns.status.phase === 'Terminating') {
    const message = `pods "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`;
    return { code: 403, body: { ...failure(403, 'Forbidden', message), details: { name, kind: 'pods', causes: [{ type: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }] } } };
  }
  const phase = isRecord(pod.status) ? pod.status.phase : undefined;
  const ignoresBudgets = pod.metadata.deletionTimestamp !== undefined || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
  const labels = stringEntriesOf(pod.metadata.labels);
  const budget = budgets.find((pdb) => {
    const selector = labelSelectorSchema.safeParse(isRecord(pdb.spec) ? (pdb.spec.selector ?? {}) : {});
    return selector.success && selectorMatches(selector.data, labels);
  });
  if (!ignoresBudgets && budget) {
    const status = isRecord(budget.status) ? budget.status : {};
    const allowed = Number(status.disruptionsAllowed ?? 0);
    if (allowed <= 0) {
      const cause = `The disruption budget ${budget.metadata.name} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`;
      return { code: 429, body: { ...failure(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget."), details: { causes: [{ type: 'DisruptionBudget', message: cause }] } } };
    }
    budget.status = { ...status, disruptionsAllowed: allowed - 1 };
  }
  return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
}

function failure(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, message, code };
}
