import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { MachineHealthCheck } from '../../../../shared/contracts/schemas/core/machine-health-check.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';
import type { Verdict } from './health-rules.js';
import type { RemediationDecision } from './remediation-allowed.js';

export interface TargetResult {
  machine: StoredObject;
  verdict: Verdict;
}

export interface MachineHealthCheckScope extends Scope {
  mhc: MachineHealthCheck | undefined;
  targets: TargetResult[];
  decision?: RemediationDecision;
}

export function createMachineHealthCheckScope(ctx: ReconcileContext, object: StoredObject, mhc: MachineHealthCheck | undefined): MachineHealthCheckScope {
  return { ctx, object, conditions: [], mhc, targets: [] };
}
