/**
 * A minimal external bootstrap provider for tests: `FakeBootstrapConfig` (+ Template) in
 * `bootstrap.test.capless.io`, v1beta2 contract. Once a Machine controls a config it writes a
 * bootstrap Secret named like the config and reports dataSecretCreated.
 */

import { LABEL_CLUSTER_NAME, controllerOf, ownerReferenceTo } from '../../shared/contracts/object.js';
import type { ProviderRegistration } from '../../functions/reconcile/engine/providers/provider-registry.js';
import type { PhaseResult, ReconcilerDefinition, Scope } from '../../functions/reconcile/engine/skeleton/types.js';

export const FAKE_BOOTSTRAP_GROUP = 'bootstrap.test.capless.io';

interface FakeBootstrapScope extends Scope {
  secretName?: string;
}

async function writeSecretPhase(s: FakeBootstrapScope): Promise<PhaseResult> {
  if (controllerOf(s.object)?.kind !== 'Machine') return { stop: true };
  const { namespace, name } = s.object.metadata;
  const existing = await s.ctx.store.get({ group: '', kind: 'Secret', namespace, name });
  if (!existing) {
    await s.ctx.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'cluster.x-k8s.io/secret',
      metadata: {
        name,
        namespace,
        labels: { [LABEL_CLUSTER_NAME]: s.object.metadata.labels?.[LABEL_CLUSTER_NAME] ?? '' },
        ownerReferences: [ownerReferenceTo(s.object, true)],
      },
      data: { value: Buffer.from('#!/bin/sh\necho fake bootstrap\n').toString('base64'), format: Buffer.from('cloud-config').toString('base64') },
    });
  }
  s.secretName = name;
  s.conditions.push({ type: 'Ready', status: 'True', reason: 'DataSecretCreated' });
  return {};
}

export const fakeBootstrapReconciler: ReconcilerDefinition<FakeBootstrapScope> = {
  kind: { group: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfig' },
  watches: [],
  createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
  phases: [writeSecretPhase],
  deletePhases: [],
  computeStatus: (s) => ({
    fields: s.secretName
      ? { initialization: { dataSecretCreated: true }, dataSecretName: s.secretName }
      : { initialization: { dataSecretCreated: false } },
  }),
};

const kindInfo = (kind: string, plural: string) => ({
  group: FAKE_BOOTSTRAP_GROUP,
  kind,
  plural,
  versions: ['v1beta2'],
  namespaced: true,
  statusSubresource: !kind.endsWith('Template'),
});

export const FAKE_BOOTSTRAP_PROVIDER: ProviderRegistration = {
  name: 'fake-bootstrap',
  type: 'BootstrapProvider',
  kinds: [kindInfo('FakeBootstrapConfig', 'fakebootstrapconfigs'), kindInfo('FakeBootstrapConfigTemplate', 'fakebootstrapconfigtemplates')],
  contracts: [
    {
      group: FAKE_BOOTSTRAP_GROUP,
      kind: 'FakeBootstrapConfig',
      role: 'BootstrapConfig',
      contractVersion: 'v1beta2',
      templateKind: 'FakeBootstrapConfigTemplate',
    },
  ],
  reconcilers: [fakeBootstrapReconciler],
};
