import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ContractVersion } from '../../../shared/contracts/provider-contract.js';
import { bootstrapConfigContract } from '../../../shared/contracts/providers/bootstrap-config.js';

function obj(status: Record<string, unknown>): KubeObject {
  return { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'X', metadata: { name: 'x' }, status };
}

describe('bootstrapConfigContract', () => {
  it.each<[string, ContractVersion, Record<string, unknown>, boolean]>([
    ['v1beta2 created', 'v1beta2', { initialization: { dataSecretCreated: true } }, true],
    ['v1beta2 ignores ready', 'v1beta2', { ready: true }, false],
    ['v1beta1 ready', 'v1beta1', { ready: true }, true],
    ['v1beta1 ignores initialization', 'v1beta1', { initialization: { dataSecretCreated: true } }, false],
    ['nothing', 'v1beta2', {}, false],
  ])('dataSecretCreated: %s', (_name, version, status, expected) => {
    expect(bootstrapConfigContract.dataSecretCreated(obj(status), version)).toBe(expected);
  });

  it.each<[string, unknown, string | undefined]>([
    ['set', 'm-1', 'm-1'],
    ['empty', '', undefined],
    ['missing', undefined, undefined],
  ])('dataSecretName: %s', (_name, name, expected) => {
    expect(bootstrapConfigContract.dataSecretName(obj({ dataSecretName: name }))).toBe(expected);
  });
});
