import { describe, expect, it } from 'vitest';
import type { ConditionInput } from '../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { mirrorReadyCondition } from '../../../shared/contracts/providers/ready-condition.js';

function obj(conditions: unknown): KubeObject {
  return { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, status: { conditions } };
}

describe('mirrorReadyCondition', () => {
  it.each<[string, unknown, boolean, ConditionInput]>([
    [
      'copies a False Ready',
      [{ type: 'Ready', status: 'False', reason: 'VMBooting', message: 'booting' }],
      false,
      { type: 'InfrastructureReady', status: 'False', reason: 'VMBooting', message: 'booting' },
    ],
    [
      'copies True without a reason (v1beta1 style)',
      [{ type: 'Ready', status: 'True' }],
      true,
      { type: 'InfrastructureReady', status: 'True', reason: 'Ready' },
    ],
    ['no condition, done', [], true, { type: 'InfrastructureReady', status: 'True', reason: 'Ready' }],
    [
      'no condition, not done',
      undefined,
      false,
      { type: 'InfrastructureReady', status: 'False', reason: 'NotProvisioned', message: 'waiting' },
    ],
    [
      'invalid status ignored',
      [{ type: 'Ready', status: 'yes' }],
      false,
      { type: 'InfrastructureReady', status: 'False', reason: 'NotProvisioned', message: 'waiting' },
    ],
  ])('%s', (_name, conditions, done, expected) => {
    expect(
      mirrorReadyCondition(obj(conditions), 'InfrastructureReady', { done, reason: 'NotProvisioned', message: 'waiting' }),
    ).toEqual(expected);
  });
});
