import { describe, expect, it } from 'vitest';
import { evaluateTarget, type HealthChecks, type TargetFacts, type Verdict } from '../../../../functions/reconcile/core/machinehealthcheck/health-rules.js';
import { remediationAllowed, type TriggerIf } from '../../../../functions/reconcile/core/machinehealthcheck/remediation-allowed.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

const CHECKS: HealthChecks = {
  nodeStartupTimeoutSeconds: 600,
  unhealthyNodeConditions: [
    { type: 'Ready', status: 'False', timeoutSeconds: 300 },
    { type: 'Ready', status: 'Unknown', timeoutSeconds: 300 },
  ],
  unhealthyMachineConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 900 }],
};

const readyNode = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(3600) }] };
const base: TargetFacts = { remediateAnnotation: false, hadNode: true, node: readyNode, machineConditions: [], startedAt: ago(3600) };

describe('evaluateTarget: Cluster API health-check rules', () => {
  it.each<[string, Partial<TargetFacts>, Partial<HealthChecks>, Verdict]>([
    ['a Ready node is healthy', {}, {}, { healthy: true }],
    ['the remediate-machine annotation wins', { remediateAnnotation: true }, {}, { healthy: false, reason: 'HasRemediateAnnotation', message: expect.any(String) }],
    ['a node that went away', { node: undefined }, {}, { healthy: false, reason: 'NodeDeleted', message: expect.any(String) }],
    [
      'Ready=False past its timeout',
      { node: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: ago(301) }] } },
      {},
      { healthy: false, reason: 'UnhealthyNode', message: 'Condition Ready on Node is reporting status False for more than 300s' },
    ],
    ['Ready=Unknown within its timeout: check again when it expires', { node: { conditions: [{ type: 'Ready', status: 'Unknown', lastTransitionTime: ago(100) }] } }, {}, { healthy: true, nextCheckSeconds: 201 }],
    ['a condition not listed is ignored', { node: { conditions: [{ type: 'DiskPressure', status: 'True', lastTransitionTime: ago(9999) }] } }, {}, { healthy: true }],
    [
      'a machine condition past its timeout',
      { machineConditions: [{ type: 'Ready', status: 'False', lastTransitionTime: ago(901) }] },
      {},
      { healthy: false, reason: 'UnhealthyMachine', message: 'Condition Ready on Machine is reporting status False for more than 900s' },
    ],
    ['no node yet, within nodeStartupTimeout', { hadNode: false, node: undefined, startedAt: ago(60) }, {}, { healthy: true, nextCheckSeconds: 541 }],
    ['no node past nodeStartupTimeout', { hadNode: false, node: undefined, startedAt: ago(601) }, {}, { healthy: false, reason: 'NodeStartupTimeout', message: expect.any(String) }],
    ['nodeStartupTimeout 0 disables the startup check', { hadNode: false, node: undefined, startedAt: ago(99999) }, { nodeStartupTimeoutSeconds: 0 }, { healthy: true }],
    [
      'the soonest of several timeouts',
      { machineConditions: [{ type: 'Ready', status: 'False', lastTransitionTime: ago(800) }], node: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: ago(250) }] } },
      {},
      { healthy: true, nextCheckSeconds: 51 },
    ],
  ])('%s', (_name, facts, checks, verdict) => {
    expect(evaluateTarget({ ...base, ...facts }, { ...CHECKS, ...checks }, NOW)).toEqual(verdict);
  });
});

describe('remediationAllowed: maxUnhealthy and unhealthyRange short-circuit', () => {
  it.each<[string, TriggerIf | undefined, number, number, boolean, number]>([
    ['no limit: all may be remediated', undefined, 3, 3, true, 0],
    ['an absolute limit not exceeded', { unhealthyLessThanOrEqualTo: 2 }, 6, 1, true, 1],
    ['an absolute limit exceeded', { unhealthyLessThanOrEqualTo: 1 }, 3, 2, false, 0],
    ['40% of 5 is 2', { unhealthyLessThanOrEqualTo: '40%' }, 5, 2, true, 0],
    ['40% of 5 is 2, 3 unhealthy', { unhealthyLessThanOrEqualTo: '40%' }, 5, 3, false, 0],
    ['inside the range', { unhealthyInRange: '[1-3]' }, 10, 2, true, 1],
    ['above the range', { unhealthyInRange: '[1-3]' }, 10, 4, false, 0],
    ['below the range', { unhealthyInRange: '[2-3]' }, 10, 1, false, 0],
    ['a malformed range refuses', { unhealthyInRange: '1-3' }, 10, 1, false, 0],
    ['the range wins over maxUnhealthy', { unhealthyInRange: '[0-5]', unhealthyLessThanOrEqualTo: 1 }, 10, 4, true, 1],
  ])('%s', (_name, trigger, total, unhealthy, allowed, remediations) => {
    const decision = remediationAllowed(trigger, total, unhealthy);
    expect(decision.allowed).toBe(allowed);
    expect(decision.remediationsAllowed).toBe(remediations);
  });
});
