import { describe, expect, it } from 'vitest';
import type { OwnerReference, StoredObject } from '../../../../shared/contracts/object.js';
import { withOwnership } from '../../../../functions/reconcile/engine/references/ownership.js';
import { readReference } from '../../../../functions/reconcile/engine/references/object-reference.js';

function obj(kind: string, name: string, refs?: OwnerReference[], labels?: Record<string, string>): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: 'x',
      ...(refs ? { ownerReferences: refs } : {}),
      ...(labels ? { labels } : {}),
    },
  };
}

const machine = obj('Machine', 'm1');
const ms = obj('MachineSet', 'ms');
const ref = (o: StoredObject, controller: boolean): OwnerReference => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name,
  uid: o.metadata.uid,
  controller,
  blockOwnerDeletion: true,
});
const label = { 'cluster.x-k8s.io/cluster-name': 'c1' };

describe('withOwnership', () => {
  it.each<[string, StoredObject, OwnerReference[] | undefined]>([
    ['adds a controller reference and label', obj('InMemoryMachine', 'm1'), [ref(machine, true)]],
    ['already owned: no change', obj('InMemoryMachine', 'm1', [ref(machine, true)], label), undefined],
    ['replaces the creator as controller', obj('InMemoryMachine', 'm1', [ref(ms, true)], label), [ref(machine, true)]],
    ['keeps non-controller owners', obj('InMemoryMachine', 'm1', [ref(ms, false)], label), [ref(ms, false), ref(machine, true)]],
  ])('%s', (_name, target, expectedRefs) => {
    const next = withOwnership(target, { owner: machine, controller: true, clusterName: 'c1' });
    if (expectedRefs === undefined) expect(next).toBeUndefined();
    else {
      expect(next?.metadata.ownerReferences).toEqual(expectedRefs);
      expect(next?.metadata.labels).toEqual(label);
    }
  });
});

describe('readReference', () => {
  it.each<[unknown, unknown]>([
    [{ apiGroup: 'g', kind: 'K', name: 'n' }, { apiGroup: 'g', kind: 'K', name: 'n' }],
    [{ apiGroup: '', kind: 'Secret', name: 'n' }, { apiGroup: '', kind: 'Secret', name: 'n' }],
    [{ kind: 'K', name: 'n' }, undefined],
    [{ apiGroup: 'g', kind: '', name: 'n' }, undefined],
    ['x', undefined],
  ])('%j → %j', (value, expected) => {
    expect(readReference({ spec: { ref: value } }, 'spec', 'ref')).toEqual(expected);
  });
});
