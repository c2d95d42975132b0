import { describe, expect, it } from 'vitest';
import { builtinProviderLookup } from '../../../../shared/contracts/providers/builtin-lookup.js';
import { DOCKER_PROVIDER, IN_MEMORY_PROVIDER } from '../../../../shared/contracts/providers/builtin-providers.js';
import { ProviderRegistry } from '../../../../functions/reconcile/providers/provider-registry.js';
import type { AnyReconciler } from '../../../../functions/reconcile/skeleton/types.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';

function fakeReconciler(kind: string): AnyReconciler {
  return {
    kind: { group: INFRA, kind },
    watches: [],
    createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
    phases: [],
    deletePhases: [],
    computeStatus: () => ({ fields: {} }),
  };
}

function registry(): ProviderRegistry {
  return new ProviderRegistry()
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [fakeReconciler('InMemoryCluster')] })
    .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] });
}

describe('ProviderRegistry', () => {
  it.each<[string, boolean, boolean, string | undefined]>([
    ['InMemoryCluster', true, true, 'v1beta2'],
    ['InMemoryMachineTemplate', true, false, undefined],
    ['DockerCluster', true, false, 'v1beta2'],
    ['AzureMachine', false, false, undefined],
  ])('%s: served %s, reconciled %s, contract %s', (kind, served, reconciled, contract) => {
    const r = registry();
    expect(r.isServedKind(INFRA, kind)).toBe(served);
    expect(r.isReconciled(INFRA, kind)).toBe(reconciled);
    expect(r.contractFor(INFRA, kind)?.contractVersion).toBe(contract);
  });

  it('lets an external provider serve a new kind with its own contract version', () => {
    const r = registry().registerProvider({
      name: 'azure',
      type: 'InfrastructureProvider',
      kinds: [{ group: INFRA, kind: 'AzureMachine', plural: 'azuremachines', versions: ['v1beta1'], namespaced: true, statusSubresource: true }],
      contracts: [{ group: INFRA, kind: 'AzureMachine', role: 'InfrastructureMachine', contractVersion: 'v1beta1', templateKind: 'AzureMachineTemplate' }],
      reconcilers: [fakeReconciler('AzureMachine')],
    });
    expect(r.contractFor(INFRA, 'AzureMachine')?.contractVersion).toBe('v1beta1');
    expect(r.isReconciled(INFRA, 'AzureMachine')).toBe(true);
    expect(r.providerOf(INFRA, 'AzureMachine')).toBe('azure');
    expect(r.reconcilers().map((x) => x.kind.kind)).toEqual(['InMemoryCluster', 'AzureMachine']);
  });

  it.each([
    ['a kind served by another provider', { ...IN_MEMORY_PROVIDER, name: 'other', reconcilers: [] }, /already served/],
    ['a second reconciler for a kind', { ...IN_MEMORY_PROVIDER, reconcilers: [fakeReconciler('InMemoryCluster')] }, /already registered/],
    [
      'a contract for a kind it does not serve',
      { ...IN_MEMORY_PROVIDER, name: 'x', kinds: [], reconcilers: [] },
      /does not serve/,
    ],
  ])('fails on %s', (_name, registration, error) => {
    expect(() => registry().registerProvider(registration)).toThrow(error);
  });

  it('the built-in fallback lookup reconciles in-memory but not Docker kinds', () => {
    expect(builtinProviderLookup.isReconciled(INFRA, 'InMemoryMachine')).toBe(true);
    expect(builtinProviderLookup.isReconciled(INFRA, 'DockerMachine')).toBe(false);
    expect(builtinProviderLookup.isServedKind(INFRA, 'DockerMachine')).toBe(true);
    expect(builtinProviderLookup.contractFor('bootstrap.cluster.x-k8s.io', 'KubeadmConfig')?.role).toBe('BootstrapConfig');
  });
});
