/**
 * A Machine's `Ready`: Cluster API's summary (machine_controller_status.go setReadyCondition) of
 * the conditions the Machine reconciler learns, the `HealthCheckSucceeded` a MachineHealthCheck
 * writes (left out while no health check has written it), and the conditions `spec.readinessGates`
 * name, which other controllers write (a Negative gate is an issue when True). A gate's condition
 * not written yet counts as Unknown. Ready is False when any input is an issue, else Unknown when
 * any is Unknown, else True.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { isRecord, valueAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { CONDITION_HEALTH_CHECK_SUCCEEDED } from '../machinehealthcheck/well-known.js';

/** A Machine's condition for its Node's health (False: not ready, or not there yet). */
export const CONDITION_NODE_HEALTHY = 'NodeHealthy';

/** The conditions the Machine reconciler itself learns every run, all positive. */
export const MACHINE_READY_INPUTS = ['BootstrapConfigReady', 'InfrastructureReady', CONDITION_NODE_HEALTHY] as const;

export interface ReadinessGate {
  conditionType: string;
  polarity?: 'Positive' | 'Negative';
}

export function isMachineReadyInput(type: string): boolean {
  return MACHINE_READY_INPUTS.some((input) => input === type);
}

/** `spec.readinessGates` of a Machine, each entry with a condition type (the CRD requires one). */
export function readinessGatesOf(machine: KubeObject): ReadinessGate[] {
  const gates = valueAt(machine, 'spec', 'readinessGates');
  if (!Array.isArray(gates)) return [];
  return gates.flatMap((gate) =>
    isRecord(gate) && typeof gate.conditionType === 'string' && gate.conditionType !== ''
      ? [{ conditionType: gate.conditionType, ...(gate.polarity === 'Negative' ? { polarity: 'Negative' as const } : {}) }]
      : [],
  );
}

/** Where the summary finds each condition: this run's, or the stored one another controller wrote. */
export type ConditionLookup = (type: string) => ConditionInput | undefined;

interface Input {
  type: string;
  negative: boolean;
  condition: ConditionInput;
}

function inputsOf(lookup: ConditionLookup, gates: readonly ReadinessGate[]): Input[] {
  const positive = (type: string) => ({ type, negative: false });
  const healthCheck = lookup(CONDITION_HEALTH_CHECK_SUCCEEDED) ? [positive(CONDITION_HEALTH_CHECK_SUCCEEDED)] : [];
  const wanted = [
    ...MACHINE_READY_INPUTS.map(positive),
    ...healthCheck,
    ...gates.map((g) => ({ type: g.conditionType, negative: g.polarity === 'Negative' })),
  ];
  const seen = new Set<string>();
  return wanted.flatMap(({ type, negative }) => {
    if (seen.has(type)) return [];
    seen.add(type);
    const condition = lookup(type) ?? { type, status: 'Unknown' as const, reason: 'NotYetReported', message: 'Condition not yet reported' };
    return [{ type, negative, condition }];
  });
}

function isIssue(input: Input): boolean {
  return input.condition.status === (input.negative ? 'True' : 'False');
}

function describe(input: Input): string {
  return `${input.type}: ${input.condition.reason}`;
}

export function machineReadyCondition(lookup: ConditionLookup, gates: readonly ReadinessGate[]): ConditionInput {
  const inputs = inputsOf(lookup, gates);
  const issues = inputs.filter(isIssue);
  const unknown = inputs.filter((i) => i.condition.status === 'Unknown');
  if (issues.length > 0) return { type: 'Ready', status: 'False', reason: 'NotReady', message: [...issues, ...unknown].map(describe).join('; ') };
  if (unknown.length > 0) return { type: 'Ready', status: 'Unknown', reason: 'ReadyUnknown', message: unknown.map(describe).join('; ') };
  return { type: 'Ready', status: 'True', reason: 'Ready' };
}
