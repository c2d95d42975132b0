import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ContractVersion } from '../../../shared/contracts/provider-contract.js';
import { controlPlaneContract } from '../../../shared/contracts/providers/control-plane.js';

function obj(spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject {
  return { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'X', metadata: { name: 'x' }, spec, status };
}

describe('controlPlaneContract', () => {
  it.each<[string, ContractVersion, Record<string, unknown>, boolean]>([
    ['v1beta2 initialized', 'v1beta2', { initialization: { controlPlaneInitialized: true } }, true],
    ['v1beta2 ignores initialized', 'v1beta2', { initialized: true }, false],
    ['v1beta1 initialized', 'v1beta1', { initialized: true }, true],
    ['v1beta1 ignores initialization', 'v1beta1', { initialization: { controlPlaneInitialized: true } }, false],
  ])('initialized: %s', (_name, version, status, expected) => {
    expect(controlPlaneContract.initialized(obj({}, status), version)).toBe(expected);
  });

  it.each<[string, ContractVersion, Record<string, unknown>, unknown]>([
    [
      'v1beta2 counters',
      'v1beta2',
      { replicas: 3, readyReplicas: 2, availableReplicas: 2, upToDateReplicas: 1, updatedReplicas: 9 },
      { desiredReplicas: 3, replicas: 3, readyReplicas: 2, availableReplicas: 2, upToDateReplicas: 1 },
    ],
    [
      'v1beta1 counters',
      'v1beta1',
      { replicas: 3, readyReplicas: 2, updatedReplicas: 1, unavailableReplicas: 1, availableReplicas: 9 },
      { desiredReplicas: 3, replicas: 3, readyReplicas: 2, availableReplicas: 2, upToDateReplicas: 1 },
    ],
    ['v1beta1 nothing reported', 'v1beta1', {}, { desiredReplicas: 3 }],
  ])('replicas: %s', (_name, version, status, expected) => {
    expect(controlPlaneContract.replicas(obj({ replicas: 3 }, status), version)).toEqual(expected);
  });

  it.each<[string, ContractVersion, Record<string, unknown>, unknown]>([
    [
      'v1beta2 versions list',
      'v1beta2',
      { versions: [{ version: 'v1.30.0', replicas: 1 }, { version: 'v1.31.0', replicas: 2 }], version: 'v1.30.0' },
      [{ version: 'v1.30.0', replicas: 1 }, { version: 'v1.31.0', replicas: 2 }],
    ],
    ['v1beta2 falls back to status.version', 'v1beta2', { version: 'v1.31.0' }, [{ version: 'v1.31.0' }]],
    ['v1beta1 status.version', 'v1beta1', { versions: [{ version: 'x' }], version: 'v1.29.0' }, [{ version: 'v1.29.0' }]],
    ['nothing', 'v1beta2', {}, []],
  ])('versions: %s', (_name, version, status, expected) => {
    expect(controlPlaneContract.versions(obj({}, status), version)).toEqual(expected);
  });

  it('version reads spec.version', () => {
    expect(controlPlaneContract.version(obj({ version: 'v1.31.0' }, {}))).toBe('v1.31.0');
    expect(controlPlaneContract.version(obj({}, {}))).toBeUndefined();
  });
});
