import { describe, expect, it } from 'vitest';
import {
  dataSecretConditions,
  kubeadmConfigStatus,
  userDataSizeCondition,
} from '../../../../functions/reconcile/kubeadm/bootstrap/status.js';

describe('kubeadmConfigStatus', () => {
  it.each([
    { dataSecretName: undefined, expected: { initialization: { dataSecretCreated: false } } },
    { dataSecretName: 'cfg-1', expected: { initialization: { dataSecretCreated: true }, dataSecretName: 'cfg-1' } },
  ])('data secret $dataSecretName', ({ dataSecretName, expected }) => {
    expect(kubeadmConfigStatus(dataSecretName ? { dataSecretName } : {}).fields).toEqual(expected);
  });
});

describe('dataSecretConditions', () => {
  it.each([
    { state: { available: true as const }, status: 'True', reason: 'Available' },
    { state: { available: false as const, reason: 'WaitingForOwner', message: 'm' }, status: 'False', reason: 'WaitingForOwner' },
  ])('$reason', ({ state, status, reason }) => {
    const conditions = dataSecretConditions(state);
    expect(conditions.map((c) => c.type)).toEqual(['DataSecretAvailable', 'Ready']);
    expect(conditions.every((c) => c.status === status)).toBe(true);
    expect(conditions[0]?.reason).toBe(reason);
  });
});

describe('userDataSizeCondition', () => {
  it.each([
    { bytes: 900, within: true, gzipped: false, status: 'True', reason: 'WithinLimit' },
    { bytes: 9000, within: true, gzipped: true, status: 'True', reason: 'WithinLimit' },
    { bytes: 17000, within: false, gzipped: true, status: 'False', reason: 'UserDataTooLarge' },
  ])('$bytes bytes → $reason', ({ bytes, within, gzipped, status, reason }) => {
    expect(userDataSizeCondition(bytes, within, gzipped)).toMatchObject({ type: 'UserDataWithinLimit', status, reason });
  });
});
