import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ContractVersion } from '../../../shared/contracts/provider-contract.js';
import { infraClusterContract } from '../../../shared/contracts/providers/infra-cluster.js';

function obj(spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject {
  return { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'X', metadata: { name: 'x' }, spec, status };
}

describe('infraClusterContract', () => {
  it.each<[string, ContractVersion, Record<string, unknown>, boolean]>([
    ['v1beta2 provisioned', 'v1beta2', { initialization: { provisioned: true } }, true],
    ['v1beta2 ignores ready', 'v1beta2', { ready: true }, false],
    ['v1beta2 not provisioned', 'v1beta2', { initialization: { provisioned: false } }, false],
    ['v1beta1 ready', 'v1beta1', { ready: true }, true],
    ['v1beta1 ignores initialization', 'v1beta1', { initialization: { provisioned: true } }, false],
    ['v1beta1 ready as string', 'v1beta1', { ready: 'true' }, false],
  ])('provisioned: %s', (_name, version, status, expected) => {
    expect(infraClusterContract.provisioned(obj({}, status), version)).toBe(expected);
  });

  it.each<[string, unknown, unknown]>([
    ['host and port', { host: 'a.example', port: 6443 }, { host: 'a.example', port: 6443 }],
    ['empty host', { host: '', port: 6443 }, undefined],
    ['no port', { host: 'a' }, undefined],
    ['port zero', { host: 'a', port: 0 }, undefined],
    ['missing', undefined, undefined],
  ])('controlPlaneEndpoint: %s', (_name, endpoint, expected) => {
    expect(infraClusterContract.controlPlaneEndpoint(obj({ controlPlaneEndpoint: endpoint }, {}))).toEqual(expected);
  });

  it.each<[string, unknown, unknown]>([
    [
      'v1beta2 list',
      [{ name: 'b', controlPlane: false }, { name: 'a', controlPlane: true, attributes: { zone: 'z' } }],
      [{ name: 'a', controlPlane: true, attributes: { zone: 'z' } }, { name: 'b', controlPlane: false }],
    ],
    [
      'v1beta1 map',
      { b: { controlPlane: true }, a: {} },
      [{ name: 'a', controlPlane: false }, { name: 'b', controlPlane: true }],
    ],
    ['garbage entries dropped', [{ controlPlane: true }, 'x', { name: 'c' }], [{ name: 'c', controlPlane: false }]],
    ['missing', undefined, []],
  ])('failureDomains: %s', (_name, fds, expected) => {
    expect(infraClusterContract.failureDomains(obj({}, { failureDomains: fds }))).toEqual(expected);
  });
});
