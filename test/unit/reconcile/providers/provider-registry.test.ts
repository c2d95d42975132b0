import { describe, expect, it } from 'vitest';
import { builtinProviderLookup } from '../../../../shared/contracts/providers/builtin-lookup.js';
import { DOCKER_PROVIDER, IN_MEMORY_PROVIDER } from '../../../../shared/contracts/providers/builtin-providers.js';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ProviderRegistry } from '../../../../functions/reconcile/engine/providers/provider-registry.js';
import type { AnyReconciler } from '../../../../functions/reconcile/engine/skeleton/types.js';

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

describe('builtinProviderRegistry', () => {
  const registry = builtinProviderRegistry();
  it.each<[string, string, boolean, boolean]>([
    ['cluster.x-k8s.io', 'Cluster', true, true],
    ['cluster.x-k8s.io', 'MachineDeployment', true, true],
    ['bootstrap.cluster.x-k8s.io', 'KubeadmConfig', true, true],
    ['controlplane.cluster.x-k8s.io', 'KubeadmControlPlane', true, true],
    [INFRA, 'InMemoryMachine', true, true],
    [INFRA, 'InMemoryMachineTemplate', true, false],
    [INFRA, 'DockerMachine', true, false],
    [INFRA, 'AWSMachine', true, true],
    [INFRA, 'AWSMachineTemplate', true, true],
    [INFRA, 'GCPMachine', false, false],
  ])('%s %s: served %s, reconciled %s', (group, kind, served, reconciled) => {
    expect(registry.isServedKind(group, kind)).toBe(served);
    expect(registry.isReconciled(group, kind)).toBe(reconciled);
  });

  it.each<[string, string[]]>([
    ['Machine', ['InMemoryMachine', 'KubeadmConfig', 'DockerMachine']],
    ['Cluster', ['InMemoryCluster', 'KubeadmControlPlane', 'DockerCluster']],
  ])('%s watches every provider kind of its roles through ownerReferences', (kind, watched) => {
    const owners = registry.reconcilerFor('cluster.x-k8s.io', kind)?.watches.filter((w) => w.by === 'owner').map((w) => w.kind.kind);
    expect(owners).toEqual(expect.arrayContaining(watched));
    expect(new Set(owners).size).toBe(owners?.length);
  });

  it('an external provider kind is watched by the core without a core change', () => {
    const r = builtinProviderRegistry().registerProvider({
      name: 'azure',
      type: 'InfrastructureProvider',
      kinds: [{ group: INFRA, kind: 'AzureMachine', plural: 'azuremachines', versions: ['v1beta1'], namespaced: true, statusSubresource: true }],
      contracts: [{ group: INFRA, kind: 'AzureMachine', role: 'InfrastructureMachine', contractVersion: 'v1beta1' }],
      reconcilers: [fakeReconciler('AzureMachine')],
    });
    const machine = r.reconcilers().find((x) => x.kind.kind === 'Machine');
    expect(machine?.watches).toEqual(expect.arrayContaining([{ kind: { group: INFRA, kind: 'AzureMachine' }, by: 'owner' }]));
  });
});
