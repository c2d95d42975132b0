/**
 * A minimal infrastructure provider for tests whose machines are "real" to the core: `FakeCloudMachine`
 * (+ `FakeCloudCluster`) in `infrastructure.test.capless.io`, v1beta2 contract. A machine gets an
 * AWS-style providerID (`aws:///us-east-1a/i-…`, derived from its uid) and is provisioned at once,
 * so the Machine must find its Node in a real workload API, through the kubeconfig-based
 * WorkloadCluster.
 */
import { createHash } from 'node:crypto';
import type { ProviderRegistration } from '../../functions/reconcile/engine/providers/provider-registry.js';
import type { PhaseResult, ReconcilerDefinition, Scope } from '../../functions/reconcile/engine/skeleton/types.js';

export const FAKE_CLOUD_GROUP = 'infrastructure.test.capless.io';

export function fakeCloudProviderID(uid: string): string {
  return `aws:///us-east-1a/i-${createHash('sha256').update(uid).digest('hex').slice(0, 17)}`;
}

async function assignProviderIDPhase(s: Scope): Promise<PhaseResult> {
  if (s.object.spec?.providerID) return {};
  s.object = await s.ctx.store.update({ ...s.object, spec: { ...s.object.spec, providerID: fakeCloudProviderID(s.object.metadata.uid) } });
  return {};
}

const provisioned = (kind: string, phases: ReconcilerDefinition<Scope>['phases']): ReconcilerDefinition<Scope> => ({
  kind: { group: FAKE_CLOUD_GROUP, kind },
  watches: [],
  createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
  phases,
  deletePhases: [],
  computeStatus: () => ({ fields: { initialization: { provisioned: true } } }),
});

const kindInfo = (kind: string, plural: string) => ({ group: FAKE_CLOUD_GROUP, kind, plural, versions: ['v1beta2'], namespaced: true, statusSubresource: true });

export const FAKE_CLOUD_PROVIDER: ProviderRegistration = {
  name: 'fake-cloud',
  type: 'InfrastructureProvider',
  kinds: [kindInfo('FakeCloudCluster', 'fakecloudclusters'), kindInfo('FakeCloudMachine', 'fakecloudmachines')],
  contracts: [
    { group: FAKE_CLOUD_GROUP, kind: 'FakeCloudCluster', role: 'InfrastructureCluster', contractVersion: 'v1beta2' },
    { group: FAKE_CLOUD_GROUP, kind: 'FakeCloudMachine', role: 'InfrastructureMachine', contractVersion: 'v1beta2' },
  ],
  reconcilers: [provisioned('FakeCloudCluster', []), provisioned('FakeCloudMachine', [assignProviderIDPhase])],
};
