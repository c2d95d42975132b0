import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ContractVersion } from '../../../shared/contracts/provider-contract.js';
import { infraMachineContract } from '../../../shared/contracts/providers/infra-machine.js';

function obj(spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject {
  return { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'X', metadata: { name: 'x' }, spec, status };
}

describe('infraMachineContract', () => {
  it.each<[string, ContractVersion, Record<string, unknown>, boolean]>([
    ['v1beta2 provisioned', 'v1beta2', { initialization: { provisioned: true } }, true],
    ['v1beta2 ignores ready', 'v1beta2', { ready: true }, false],
    ['v1beta1 ready', 'v1beta1', { ready: true }, true],
    ['v1beta1 ignores initialization', 'v1beta1', { initialization: { provisioned: true } }, false],
  ])('provisioned: %s', (_name, version, status, expected) => {
    expect(infraMachineContract.provisioned(obj({}, status), version)).toBe(expected);
  });

  it.each<[string, unknown, string | undefined]>([
    ['set', 'aws:///us-east-1a/i-1', 'aws:///us-east-1a/i-1'],
    ['empty', '', undefined],
    ['not a string', 3, undefined],
  ])('providerID: %s', (_name, id, expected) => {
    expect(infraMachineContract.providerID(obj({ providerID: id }, {}))).toBe(expected);
  });

  it.each<[string, ContractVersion, Record<string, unknown>, Record<string, unknown>, string | undefined]>([
    ['v1beta2 reads status', 'v1beta2', { failureDomain: 'spec-fd' }, { failureDomain: 'status-fd' }, 'status-fd'],
    ['v1beta2 ignores spec', 'v1beta2', { failureDomain: 'spec-fd' }, {}, undefined],
    ['v1beta1 reads legacy spec', 'v1beta1', { failureDomain: 'spec-fd' }, { failureDomain: 'status-fd' }, 'spec-fd'],
    ['v1beta1 empty', 'v1beta1', { failureDomain: '' }, {}, undefined],
  ])('failureDomain: %s', (_name, version, spec, status, expected) => {
    expect(infraMachineContract.failureDomain(obj(spec, status), version)).toBe(expected);
  });

  it.each<[string, unknown, unknown]>([
    ['valid', [{ type: 'InternalIP', address: '10.0.0.1' }], [{ type: 'InternalIP', address: '10.0.0.1' }]],
    ['invalid dropped', [{ type: 'InternalIP' }, { address: 'x' }, 7], []],
    ['missing', undefined, []],
  ])('addresses: %s', (_name, addresses, expected) => {
    expect(infraMachineContract.addresses(obj({}, { addresses }))).toEqual(expected);
  });
});
