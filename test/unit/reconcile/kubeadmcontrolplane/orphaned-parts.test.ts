import { describe, expect, it } from 'vitest';
import { orphanedParts, resumableName } from '../../../../functions/reconcile/kubeadm/controlplane/orphaned-parts.js';
import type { KubeObject, StoredObject } from '../../../../shared/contracts/object.js';

const KCP = 'kcp-uid';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';

function part(kind: string, name: string, spec: Record<string, unknown>, opts: { controller?: string; annotations?: Record<string, string> } = {}): StoredObject {
  return {
    apiVersion: kind === 'KubeadmConfig' ? 'bootstrap.cluster.x-k8s.io/v1beta2' : INFRA,
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid: `${kind}-${name}`,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      ...(opts.annotations ? { annotations: opts.annotations } : {}),
      ownerReferences: [{ apiVersion: 'v', kind: 'K', name: 'n', uid: opts.controller ?? KCP, controller: true }],
    },
    spec,
  };
}

const cloned = { 'cluster.x-k8s.io/cloned-from-name': 'tpl' };
const build = (name: string): KubeObject[] => [
  { apiVersion: INFRA, kind: 'InMemoryMachine', metadata: { name, annotations: cloned }, spec: { startupSeconds: 1 } },
  { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name }, spec: { joinConfiguration: {} } },
];

describe('orphanedParts', () => {
  const machine: StoredObject = {
    ...part('Machine', 'named', {}),
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    spec: { infrastructureRef: { kind: 'InMemoryMachine', name: 'named' }, bootstrap: { configRef: { kind: 'KubeadmConfig', name: 'named' } } },
  };
  it.each<[string, StoredObject, boolean]>([
    ['a part no Machine names', part('InMemoryMachine', 'lost', {}), true],
    ['a part a Machine names', part('InMemoryMachine', 'named', {}), false],
    ['a part another controller owns', part('InMemoryMachine', 'lost', {}, { controller: 'machine-uid' }), false],
    ['a Secret', part('Secret', 'c1-ca', {}), false],
  ])('%s: orphaned = %s', (_name, object, orphaned) => {
    expect(orphanedParts(KCP, [object, machine]).includes(object)).toBe(orphaned);
  });
});

describe('resumableName', () => {
  it.each<[string, StoredObject[], string | undefined]>([
    ['the InfraMachine as built', [part('InMemoryMachine', 'a', { startupSeconds: 1 }, { annotations: cloned })], 'a'],
    ['both parts as built, a provider field added', [part('InMemoryMachine', 'a', { startupSeconds: 1, providerID: 'x' }, { annotations: cloned }), part('KubeadmConfig', 'a', { joinConfiguration: {} })], 'a'],
    ['another spec (the template changed)', [part('InMemoryMachine', 'a', { startupSeconds: 9 }, { annotations: cloned })], undefined],
    ['cloned from another template', [part('InMemoryMachine', 'a', { startupSeconds: 1 }, { annotations: { 'cluster.x-k8s.io/cloned-from-name': 'old' } })], undefined],
    ['an init config where a join is built', [part('KubeadmConfig', 'a', { initConfiguration: {} })], undefined],
    ['a stale name and a good one', [part('InMemoryMachine', 'a', { startupSeconds: 9 }, { annotations: cloned }), part('InMemoryMachine', 'b', { startupSeconds: 1 }, { annotations: cloned })], 'b'],
    ['nothing orphaned', [], undefined],
  ])('%s → %s', (_name, orphans, expected) => {
    expect(resumableName(orphans, build)).toBe(expected);
  });
});
