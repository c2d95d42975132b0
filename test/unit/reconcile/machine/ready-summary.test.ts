import { describe, expect, it } from 'vitest';
import type { ConditionInput, ConditionStatus } from '../../../../shared/contracts/conditions.js';
import { machineReadyCondition, type ReadinessGate, readinessGatesOf } from '../../../../functions/reconcile/core/machine/ready-summary.js';

const c = (type: string, status: ConditionStatus, reason = status === 'True' ? 'Ok' : 'Bad'): ConditionInput => ({ type, status, reason });
const own = [c('BootstrapConfigReady', 'True'), c('InfrastructureReady', 'True'), c('NodeHealthy', 'True')];

describe('machineReadyCondition', () => {
  it.for<[string, ConditionInput[], ReadinessGate[], ConditionStatus, string, string | undefined]>([
    ['own inputs True, nothing else', [], [], 'True', 'Ready', undefined],
    ['a health check that passed', [c('HealthCheckSucceeded', 'True')], [], 'True', 'Ready', undefined],
    ['a health check that failed', [c('HealthCheckSucceeded', 'False', 'UnhealthyNode')], [], 'False', 'NotReady', 'HealthCheckSucceeded: UnhealthyNode'],
    ['a gate True', [c('example.com/LoadBalancerAttached', 'True')], [{ conditionType: 'example.com/LoadBalancerAttached' }], 'True', 'Ready', undefined],
    ['a gate not reported yet', [], [{ conditionType: 'Attached' }], 'Unknown', 'ReadyUnknown', 'Attached: NotYetReported'],
    ['a gate False', [c('Attached', 'False', 'Detached')], [{ conditionType: 'Attached', polarity: 'Positive' }], 'False', 'NotReady', 'Attached: Detached'],
    ['a gate Unknown', [c('Attached', 'Unknown', 'Probing')], [{ conditionType: 'Attached' }], 'Unknown', 'ReadyUnknown', 'Attached: Probing'],
    ['a negative gate False is fine', [c('Degraded', 'False', 'Fine')], [{ conditionType: 'Degraded', polarity: 'Negative' }], 'True', 'Ready', undefined],
    ['a negative gate True is an issue', [c('Degraded', 'True', 'DiskFull')], [{ conditionType: 'Degraded', polarity: 'Negative' }], 'False', 'NotReady', 'Degraded: DiskFull'],
    ['an issue and an unknown: False, both said', [c('A', 'False', 'No'), c('B', 'Unknown', 'Maybe')], [{ conditionType: 'A' }, { conditionType: 'B' }], 'False', 'NotReady', 'A: No; B: Maybe'],
    ['a gate naming an own input counts once', [], [{ conditionType: 'NodeHealthy' }], 'True', 'Ready', undefined],
  ])('%s', ([, others, gates, status, reason, message]) => {
    const all = [...own, ...others];
    const ready = machineReadyCondition((type) => all.find((x) => x.type === type), gates);
    expect(ready).toEqual({ type: 'Ready', status, reason, ...(message ? { message } : {}) });
  });

  it('a Node not healthy is an issue whatever the gates say', () => {
    const all = [c('BootstrapConfigReady', 'True'), c('InfrastructureReady', 'True'), c('NodeHealthy', 'False', 'NodeNotReady'), c('G', 'True')];
    expect(machineReadyCondition((type) => all.find((x) => x.type === type), [{ conditionType: 'G' }]).status).toBe('False');
  });
});

describe('readinessGatesOf', () => {
  it.for<[string, unknown, ReadinessGate[]]>([
    ['none', undefined, []],
    ['not a list', { conditionType: 'A' }, []],
    ['entries with a type, polarity kept when Negative', [{ conditionType: 'A' }, { conditionType: 'B', polarity: 'Negative' }, { conditionType: 'C', polarity: 'Positive' }], [{ conditionType: 'A' }, { conditionType: 'B', polarity: 'Negative' }, { conditionType: 'C' }]],
    ['malformed entries dropped', [{ conditionType: '' }, 'A', { polarity: 'Negative' }], []],
  ])('%s', ([, gates, expected]) => {
    expect(readinessGatesOf({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name: 'm' }, spec: { readinessGates: gates } })).toEqual(expected);
  });
});
