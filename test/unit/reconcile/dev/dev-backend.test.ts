import { describe, expect, it } from 'vitest';
import { devBackendOf, devStartupSeconds } from '../../../../functions/reconcile/infrastructure/dev/backend.js';
import { inMemoryBackendPhase, createDevMachineScope } from '../../../../functions/reconcile/infrastructure/dev/machine-reconciler.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { testContext } from '../../../support/reconcile-context.js';

function devMachine(backend: Record<string, unknown>, labels: Record<string, string> = {}, name = 'm1'): StoredObject {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevMachine',
    metadata: { name, namespace: 'ns', uid: name, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels },
    spec: { backend },
  };
}

const stage = (startupDuration: string, startupJitter?: string) => ({ provisioning: { startupDuration, ...(startupJitter ? { startupJitter } : {}) } });

describe('DevMachine in-memory backend start-up time', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>, number]>([
    ['no durations: at once', { inMemory: {} }, {}, 0],
    ['a worker waits for vm and node', { inMemory: { vm: stage('10s'), node: stage('2s'), apiServer: stage('2s'), etcd: stage('2s') } }, {}, 12],
    ['a control-plane machine also waits for API server and etcd', { inMemory: { vm: stage('10s'), node: stage('2s'), apiServer: stage('2s'), etcd: stage('2s') } }, { 'cluster.x-k8s.io/control-plane': '' }, 16],
    ['minutes are understood', { inMemory: { vm: stage('1m30s') } }, {}, 90],
  ])('%s', (_name, backend, labels, seconds) => {
    expect(devStartupSeconds(devMachine(backend, labels))).toBe(seconds);
  });

  it('jitter stretches each stage by up to its fraction, the same on every run', () => {
    const backend = { inMemory: { vm: stage('10s', '0.2'), node: stage('2s', '0.2') } };
    const seconds = ['a', 'b', 'c', 'd', 'e'].map((name) => devStartupSeconds(devMachine(backend, {}, name)));
    for (const s of seconds) {
      expect(s).toBeGreaterThanOrEqual(12);
      expect(s).toBeLessThanOrEqual(15);
    }
    expect(seconds).toEqual(['a', 'b', 'c', 'd', 'e'].map((name) => devStartupSeconds(devMachine(backend, {}, name))));
  });
});

describe('DevMachine backends', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ inMemory: {} }, 'inMemory'],
    [{ docker: {} }, 'docker'],
    [{}, 'none'],
  ])('%j is %s', (backend, expected) => {
    expect(devBackendOf(devMachine(backend))).toBe(expected);
  });

  it('a docker backend stops with Ready=False ProviderNotInstalled; in-memory goes on', () => {
    const docker = createDevMachineScope(testContext(), devMachine({ docker: {} }));
    expect(inMemoryBackendPhase(docker)).toEqual({ stop: true });
    expect(docker.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'False', reason: 'ProviderNotInstalled' })]);
    const inMemory = createDevMachineScope(testContext(), devMachine({ inMemory: {} }));
    expect(inMemoryBackendPhase(inMemory)).toEqual({});
    expect(inMemory.conditions).toEqual([]);
  });
});
