import { describe, expect, it } from 'vitest';
import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import {
  type MachinePhaseFacts,
  machinePhase,
  machineSummaryConditions,
} from '../../../../functions/reconcile/core/machine/status.js';
import { hooksWithPrefix, PRE_DRAIN_HOOK_PREFIX } from '../../../../functions/reconcile/core/machine/delete-phases.js';

const none: MachinePhaseFacts = {
  deleting: false,
  bootstrapDataSecretCreated: false,
  infrastructureProvisioned: false,
  providerID: false,
  nodeRef: false,
};

describe('machinePhase', () => {
  it.each<[string, Partial<MachinePhaseFacts>, string]>([
    ['nothing yet', {}, 'Pending'],
    ['bootstrap data ready', { bootstrapDataSecretCreated: true }, 'Provisioning'],
    ['providerID set', { bootstrapDataSecretCreated: true, infrastructureProvisioned: true, providerID: true }, 'Provisioned'],
    ['node and infrastructure', { bootstrapDataSecretCreated: true, infrastructureProvisioned: true, providerID: true, nodeRef: true }, 'Running'],
    ['node without infrastructure', { providerID: true, nodeRef: true }, 'Provisioned'],
    ['deleting wins', { deleting: true, nodeRef: true, infrastructureProvisioned: true }, 'Deleting'],
  ])('%s → %s', (_name, facts, expected) => {
    expect(machinePhase({ ...none, ...facts })).toBe(expected);
  });
});

const t = (type: string): ConditionInput => ({ type, status: 'True', reason: 'Ok' });
const f = (type: string, reason: string): ConditionInput => ({ type, status: 'False', reason });
const lookupIn = (conditions: readonly ConditionInput[]) => (type: string) => conditions.find((c) => c.type === type);

describe('machineSummaryConditions', () => {
  it.each<[string, ConditionInput[], string, string | undefined]>([
    ['all inputs True', [t('BootstrapConfigReady'), t('InfrastructureReady'), t('NodeHealthy')], 'True', undefined],
    ['infrastructure not ready', [t('BootstrapConfigReady'), f('InfrastructureReady', 'NotProvisioned'), t('NodeHealthy')], 'False', 'InfrastructureReady: NotProvisioned'],
    ['missing input is Unknown', [t('BootstrapConfigReady'), t('InfrastructureReady')], 'Unknown', 'NodeHealthy: NotYetReported'],
  ])('%s', (_name, conditions, ready, message) => {
    const [readyCondition, available, upToDate] = machineSummaryConditions(lookupIn(conditions), [], { minReadySeconds: 0, now: new Date() }).conditions;
    expect(readyCondition?.status).toBe(ready);
    expect(readyCondition?.message).toBe(message);
    expect(available?.status).toBe(ready === 'True' ? 'True' : 'False');
    expect(upToDate?.status).toBe('True');
  });
});

describe('hooksWithPrefix', () => {
  it.each<[Record<string, string> | undefined, string[]]>([
    [undefined, []],
    [{ [`${PRE_DRAIN_HOOK_PREFIX}/b`]: '', [`${PRE_DRAIN_HOOK_PREFIX}/a`]: 'owner' }, [`${PRE_DRAIN_HOOK_PREFIX}/a`, `${PRE_DRAIN_HOOK_PREFIX}/b`]],
    [{ [`${PRE_DRAIN_HOOK_PREFIX}x/a`]: '', other: '' }, []],
    [{ [PRE_DRAIN_HOOK_PREFIX]: '' }, [PRE_DRAIN_HOOK_PREFIX]],
  ])('%j → %j', (annotations, expected) => {
    expect(hooksWithPrefix(annotations, PRE_DRAIN_HOOK_PREFIX)).toEqual(expected);
  });
});

describe('machineSummaryConditions: minReadySeconds', () => {
  const inputs = [t('BootstrapConfigReady'), t('InfrastructureReady'), t('NodeHealthy')];
  const now = new Date('2026-01-01T00:01:00Z');
  it.each<[string, number, string | undefined, string, number | undefined]>([
    ['no minReadySeconds', 0, undefined, 'Available', undefined],
    ['Ready just now, 30 s required', 30, undefined, 'WaitingForMinReadySeconds', 30],
    ['Ready for 20 s of 30', 30, '2026-01-01T00:00:40Z', 'WaitingForMinReadySeconds', 10],
    ['Ready for 60 s of 30', 30, '2026-01-01T00:00:00Z', 'Available', undefined],
  ])('%s', (_name, minReadySeconds, readySince, reason, requeue) => {
    const summary = machineSummaryConditions(lookupIn(inputs), [], { minReadySeconds, now, ...(readySince ? { readySince } : {}) });
    expect(summary.conditions.find((c) => c.type === 'Available')?.reason).toBe(reason);
    expect(summary.requeueAfterSeconds).toBe(requeue);
  });
});
