import { describe, expect, it } from 'vitest';
import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { aggregateMachineConditions, listNames, type MachineReport } from '../../../../functions/reconcile/kubeadm/controlplane/health-aggregate.js';

const ok = (type: string): ConditionInput => ({ type, status: 'True', reason: 'Running' });
const bad = (type: string, message?: string): ConditionInput => ({ type, status: 'False', reason: 'Failed', ...(message ? { message } : {}) });
const unknown = (type: string, message: string): ConditionInput => ({ type, status: 'Unknown', reason: 'InspectionFailed', message });
const report = (name: string, conditions: ConditionInput[], provisioned = true): MachineReport => ({ name, provisioned, conditions });
const AGG = { type: 'ControlPlaneComponentsHealthy', note: 'control plane' };

describe('aggregateMachineConditions (Cluster API aggregateConditionsFromMachinesToKCP)', () => {
  it.for<[string, MachineReport[], readonly string[], ConditionInput]>([
    ['all healthy', [report('m1', [ok('A'), ok('B')]), report('m2', [ok('A'), ok('B')])], [], { type: AGG.type, status: 'True', reason: 'Healthy' }],
    ['no Machines', [], [], { type: AGG.type, status: 'Unknown', reason: 'HealthUnknown', message: 'No Machines reporting control plane status' }],
    [
      'one Machine with one failing component',
      [report('m1', [ok('A'), bad('B', 'CrashLoopBackOff')]), report('m2', [ok('A'), ok('B')])],
      [],
      { type: AGG.type, status: 'False', reason: 'NotHealthy', message: '* Machine m1:\n  * B: CrashLoopBackOff' },
    ],
    [
      'a False without a message says its status',
      [report('m1', [bad('A')])],
      [],
      { type: AGG.type, status: 'False', reason: 'NotHealthy', message: '* Machine m1:\n  * A: condition is False' },
    ],
    [
      'the same message on every component is said once',
      [report('m1', [unknown('A', 'Node m1 is unreachable'), unknown('B', 'Node m1 is unreachable')])],
      [],
      { type: AGG.type, status: 'Unknown', reason: 'HealthUnknown', message: '* Machine m1:\n  * Control plane components: Node m1 is unreachable' },
    ],
    [
      'an Unknown from a Machine not provisioned yet counts as nothing',
      [report('m1', [ok('A')]), report('m2', [unknown('A', 'Waiting for X to report spec.providerID')], false)],
      [],
      { type: AGG.type, status: 'True', reason: 'Healthy' },
    ],
    [
      'Machines saying the same grouped, the larger group first',
      [report('m3', [bad('A', 'x')]), report('m1', [bad('A', 'y')]), report('m2', [bad('A', 'y')])],
      [],
      { type: AGG.type, status: 'False', reason: 'NotHealthy', message: '* Machines m1, m2:\n  * A: y\n* Machine m3:\n  * A: x' },
    ],
    [
      "the control plane's own errors make it False",
      [report('m1', [ok('A')])],
      ['Etcd member n9 does not have a corresponding Machine'],
      { type: AGG.type, status: 'False', reason: 'NotHealthy', message: '* Etcd member n9 does not have a corresponding Machine' },
    ],
  ])('%s', ([, reports, errors, expected]) => {
    expect(aggregateMachineConditions(reports, { ...AGG, errors })).toEqual(expected);
  });

  it.for<[string[], string]>([
    [['a'], 'a'],
    [['a', 'b', 'c'], 'a, b, c'],
    [['a', 'b', 'c', 'd', 'e'], 'a, b, c, ... (2 more)'],
  ])('listNames %j → %s', ([names, expected]) => {
    expect(listNames(names)).toBe(expected);
  });
});
