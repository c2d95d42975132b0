import { describe, expect, it } from 'vitest';
import { checkWait, parseWaitFor } from '../../../cli/client/wait-condition.js';
import { failingMessage, readyText } from '../../../cli/output/conditions.js';

const withConditions = (kind: string, conditions: unknown[], extra: Record<string, unknown> = {}) => ({ kind, status: { conditions, ...extra } });
const cond = (type: string, status: string, message?: string) => ({ type, status, reason: `${type}Reason`, ...(message ? { message } : {}) });

describe('parseWaitFor', () => {
  it.each([
    ['condition=Ready', { type: 'condition', condition: 'Ready', status: 'True' }],
    ['condition=Ready=False', { type: 'condition', condition: 'Ready', status: 'False' }],
    ['delete', { type: 'delete' }],
    ["jsonpath='{.status.phase}'=Provisioned", { type: 'jsonpath', path: ['status', 'phase'], value: 'Provisioned' }],
    ['jsonpath={.status.phase}=Provisioned', { type: 'jsonpath', path: ['status', 'phase'], value: 'Provisioned' }],
    ['jsonpath={.spec.replicas}=3', { type: 'jsonpath', path: ['spec', 'replicas'], value: '3' }],
  ])('%s', (text, expected) => expect(parseWaitFor(text)).toEqual(expected));

  it.each(['ready', 'condition=', 'jsonpath=.status.phase', 'create'])('%j is refused', (text) => expect(() => parseWaitFor(text)).toThrow(/unrecognized --for/));
});

describe('checkWait', () => {
  const ready = withConditions('Machine', [cond('Ready', 'True')], { phase: 'Running' });
  const notReady = withConditions('Machine', [cond('Ready', 'False', 'waiting for node')], { phase: 'Provisioning' });
  it.each([
    [ready, 'condition=Ready', true, 'Ready=True (ReadyReason)'],
    [notReady, 'condition=Ready', false, 'Ready=False (ReadyReason: waiting for node)'],
    [notReady, 'condition=ready=false', true, 'Ready=False (ReadyReason: waiting for node)'],
    [withConditions('Machine', []), 'condition=Ready', false, 'Ready not reported yet'],
    [undefined, 'condition=Ready', false, 'not found'],
    [undefined, 'delete', true, 'deleted'],
    [ready, 'delete', false, 'still exists'],
    [ready, 'jsonpath={.status.phase}=Running', true, '.status.phase=Running'],
    [notReady, 'jsonpath={.status.phase}=Running', false, '.status.phase=Provisioning'],
    [{ spec: { replicas: 3 } }, 'jsonpath={.spec.replicas}=3', true, '.spec.replicas=3'],
    [{}, 'jsonpath={.status.phase}=Running', false, '.status.phase=<none>'],
  ])('%# %s', (object, waitFor, met, now) => {
    expect(checkWait(object, parseWaitFor(waitFor))).toEqual({ met, now });
  });
});

describe('READY and the failing message', () => {
  it.each([
    [withConditions('Cluster', [cond('Ready', 'True'), cond('Available', 'False', 'cp down')]), 'False', 'cp down'],
    [withConditions('MachineDeployment', [cond('Available', 'True'), cond('RollingOut', 'False', 'scaling')]), 'True', 'scaling'],
    [withConditions('Machine', [cond('Available', 'False'), cond('Ready', 'True')]), 'True', ''],
    [withConditions('Machine', [cond('Ready', 'False')]), 'False', 'ReadyReason'],
    [{ kind: 'DockerCluster', status: { ready: true } }, 'True', ''],
    [{ kind: 'DockerCluster', status: { ready: false } }, 'False', ''],
    [{ kind: 'ConfigMap' }, '-', ''],
    [withConditions('Machine', [{ type: 'Ready' }, 'junk', null]), '-', ''],
  ])('%#', (object, ready, message) => {
    expect(readyText(object)).toBe(ready);
    expect(failingMessage(object)).toBe(message);
  });
});
