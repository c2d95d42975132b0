import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ProviderRegistry } from '../../../../functions/reconcile/engine/providers/provider-registry.js';
import type { AnyReconciler } from '../../../../functions/reconcile/engine/skeleton/types.js';

/** What a provider kind's reconciler follows by its contract role (ADR 0148, 0150), for built-in and external providers alike. */
const INFRA = 'infrastructure.cluster.x-k8s.io';

function bare(group: string, kind: string): AnyReconciler {
  return {
    kind: { group, kind },
    watches: [],
    createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
    phases: [],
    deletePhases: [],
    computeStatus: () => ({ fields: {} }),
  };
}

const rulesOf = (r: AnyReconciler) => ({ kind: r.kind.kind, pausesWithCluster: r.pausesWithCluster, skipsExternallyManaged: r.skipsExternallyManaged });

describe('contract role rules', () => {
  const builtin = builtinProviderRegistry().reconcilers();

  it.each<[string, false | undefined, true | undefined]>([
    ['InMemoryCluster', undefined, true],
    ['DevCluster', undefined, true],
    ['AWSCluster', undefined, true],
    ['InClusterIPPool', false, undefined],
    ['GlobalInClusterIPPool', false, undefined],
    ['InMemoryMachine', undefined, undefined],
    ['AWSMachine', undefined, undefined],
    ['KubeadmControlPlane', undefined, undefined],
    ['KubeadmConfig', undefined, undefined],
    ['IPAddressClaim', undefined, undefined],
    ['Cluster', undefined, undefined],
    ['Machine', undefined, undefined],
  ])('the built-in %s: pausesWithCluster %s, skipsExternallyManaged %s', (kind, pausesWithCluster, skipsExternallyManaged) => {
    const reconciler = builtin.find((r) => r.kind.kind === kind);
    if (!reconciler) throw new Error(`no built-in reconciler for ${kind}`);
    expect(rulesOf(reconciler)).toEqual({ kind, pausesWithCluster, skipsExternallyManaged });
  });

  it("gives an external provider's kinds the rule of their role", () => {
    const registry = new ProviderRegistry().registerProvider({
      name: 'azure',
      type: 'InfrastructureProvider',
      kinds: ['AzureCluster', 'AzureMachine'].map((kind) => ({ group: INFRA, kind, plural: `${kind.toLowerCase()}s`, versions: ['v1beta1'], namespaced: true, statusSubresource: true })),
      contracts: [
        { group: INFRA, kind: 'AzureCluster', role: 'InfrastructureCluster', contractVersion: 'v1beta1', templateKind: 'AzureClusterTemplate' },
        { group: INFRA, kind: 'AzureMachine', role: 'InfrastructureMachine', contractVersion: 'v1beta1', templateKind: 'AzureMachineTemplate' },
      ],
      reconcilers: [bare(INFRA, 'AzureCluster'), bare(INFRA, 'AzureMachine')],
    });
    expect(registry.reconcilers().map(rulesOf)).toEqual([
      { kind: 'AzureCluster', pausesWithCluster: undefined, skipsExternallyManaged: true },
      { kind: 'AzureMachine', pausesWithCluster: undefined, skipsExternallyManaged: undefined },
    ]);
    expect(registry.reconcilerFor(INFRA, 'AzureCluster')?.skipsExternallyManaged).toBe(true);
  });
});
