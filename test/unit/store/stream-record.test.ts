import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../shared/contracts/object.js';
import { objectToItem } from '../../../shared/adapters/aws/dynamodb/item-codec.js';
import { objectChangeFromStreamRecord } from '../../../shared/adapters/aws/dynamodb/stream-record.js';

const machine: StoredObject = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: {
    name: 'm1',
    namespace: 'ns1',
    uid: '0b4f6c2e-1111-4a4a-8888-000000000001',
    resourceVersion: '1700000000000001',
    generation: 2,
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
    finalizers: ['machine.cluster.x-k8s.io'],
    ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: 'ms', uid: 'owner-1', controller: true }],
  },
  spec: { clusterName: 'c1', version: 'v1.31.0' },
  status: { phase: 'Running' },
};
const secret: StoredObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's1', namespace: 'ns1', uid: 'u2', resourceVersion: '2', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  type: 'cluster.x-k8s.io/secret',
  data: { value: 'YQ==' },
};
const modified: StoredObject = { ...machine, metadata: { ...machine.metadata, resourceVersion: '1700000000000002' }, status: { phase: 'Deleting' } };
const keys = (obj: StoredObject) => {
  const item = objectToItem(obj);
  return { pk: item.pk, sk: item.sk };
};

describe('objectChangeFromStreamRecord', () => {
  it.each([
    ['INSERT', { NewImage: objectToItem(machine) }, { type: 'INSERT', newObject: machine }],
    ['MODIFY', { OldImage: objectToItem(machine), NewImage: objectToItem(modified) }, { type: 'MODIFY', oldObject: machine, newObject: modified }],
    ['REMOVE', { OldImage: objectToItem(machine) }, { type: 'REMOVE', oldObject: machine }],
  ] as const)('decodes %s', (eventName, images, expected) => {
    expect(objectChangeFromStreamRecord({ eventName, dynamodb: { Keys: keys(machine), ...images } })).toEqual(expected);
  });

  it('round-trips a Secret with data and type', () => {
    const change = objectChangeFromStreamRecord({ eventName: 'INSERT', dynamodb: { Keys: keys(secret), NewImage: objectToItem(secret) } });
    expect(change).toEqual({ type: 'INSERT', newObject: secret });
  });

  it.each([
    ['a work item', { pk: { S: 'work#cluster.x-k8s.io#Machine' }, sk: { S: 'ns1/m1' } }],
    ['an owner edge', { pk: { S: 'owner#owner-1' }, sk: { S: 'cluster.x-k8s.io#Machine#ns1#m1' } }],
    ['a key without pk', { id: { S: 'x' } }],
  ])('ignores %s', (_label, Keys) => {
    expect(objectChangeFromStreamRecord({ eventName: 'INSERT', dynamodb: { Keys, NewImage: { ...Keys, payload: { S: '{}' } } } })).toBeUndefined();
  });
});
