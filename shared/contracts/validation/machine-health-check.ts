/** Validation of MachineHealthCheck (C14 `internal/webhooks/machinehealthcheck.go` and its CRD patterns). */

import type { MachineHealthCheck } from '../schemas/core/machine-health-check.js';
import { type FieldError, invalid, required } from './field-error.js';
import { isEmptySelector } from './label-selector.js';

/** C14 `minNodeStartupTimeout`. */
const MIN_NODE_STARTUP_TIMEOUT_SECONDS = 30;

export function validateMachineHealthCheck(mhc: MachineHealthCheck): FieldError[] {
  const errors: FieldError[] = [];
  if (isEmptySelector(mhc.spec.selector)) errors.push(required('spec.selector', 'must not be empty'));
  const startup = mhc.spec.checks?.nodeStartupTimeoutSeconds;
  if (startup !== undefined && startup !== 0 && startup < MIN_NODE_STARTUP_TIMEOUT_SECONDS) {
    errors.push(invalid('spec.checks.nodeStartupTimeoutSeconds', startup, `must be at least ${MIN_NODE_STARTUP_TIMEOUT_SECONDS} seconds (0 disables it)`));
  }
  // The schema holds the `[min-max]` pattern; the webhook also wants min <= max.
  const range = mhc.spec.remediation?.triggerIf?.unhealthyInRange;
  const [min, max] = range ? range.slice(1, -1).split('-').map(Number) : [];
  if (range && (min ?? 0) > (max ?? 0)) errors.push(invalid('spec.remediation.triggerIf.unhealthyInRange', range, 'the minimum must not exceed the maximum'));
  return errors;
}
