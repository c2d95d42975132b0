/**
 * Validation of MachineDrainRule (C14 `core/webhooks/admission/machinedrainrules.go`): an order
 * only with behavior Drain, and every selector a valid label selector
 * (ValidateMachineDrainRulesSelectors, which Cluster API's Machine controller runs again before
 * it trusts a rule). The CRD's own bounds are in the schema (../schemas/core/machine-drain-rule.ts).
 */

import type { MachineDrainRule } from '../schemas/core/machine-drain-rule.js';
import { type FieldError, invalid } from './field-error.js';
import { labelSelectorErrors } from './label-selector.js';

export function validateMachineDrainRule(rule: MachineDrainRule): FieldError[] {
  const errors: FieldError[] = [];
  const { behavior, order } = rule.spec.drain;
  if ((behavior === 'Skip' || behavior === 'WaitCompleted') && order !== undefined) {
    errors.push(invalid('spec.drain.order', order, 'order must not be set if drain behavior is "Skip" or "WaitCompleted"'));
  }
  return [...errors, ...machineDrainRuleSelectorErrors(rule.spec)];
}

/** Cluster API's ValidateMachineDrainRulesSelectors: each set selector of `machines` and `pods`, at its path. */
export function machineDrainRuleSelectorErrors(spec: MachineDrainRule['spec']): FieldError[] {
  const machines = (spec.machines ?? []).flatMap((entry, i) => [
    ...(entry.selector ? labelSelectorErrors(entry.selector, `spec.machines[${i}].selector`) : []),
    ...(entry.clusterSelector ? labelSelectorErrors(entry.clusterSelector, `spec.machines[${i}].clusterSelector`) : []),
  ]);
  const pods = (spec.pods ?? []).flatMap((entry, i) => [
    ...(entry.selector ? labelSelectorErrors(entry.selector, `spec.pods[${i}].selector`) : []),
    ...(entry.namespaceSelector ? labelSelectorErrors(entry.namespaceSelector, `spec.pods[${i}].namespaceSelector`) : []),
  ]);
  return [...machines, ...pods];
}
