import { describe, expect, it } from 'vitest';
import { ownChangeMatters } from '../../../../functions/reconcile/router/own-change-predicate.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';

const OWN = 'machine.cluster.x-k8s.io';

function machine(meta: Partial<StoredObject['metadata']> = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', namespace: 'ns1', uid: 'u1', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', ...meta },
    spec: { clusterName: 'c1' },
  };
}

describe("a reconciler's own finalizer being added is not a change it needs to hear of", () => {
  it.each<[string, Partial<StoredObject['metadata']>, Partial<StoredObject['metadata']>, boolean]>([
    ['its own finalizer added (the echo of its first reconcile)', {}, { finalizers: [OWN] }, false],
    ['its own finalizer added after another', { finalizers: ['x/y'] }, { finalizers: ['x/y', OWN] }, false],
    ['another finalizer added', {}, { finalizers: ['x/y'] }, true],
    ['its own finalizer removed by someone else', { finalizers: [OWN] }, {}, true],
    ['its own finalizer added with a label', {}, { finalizers: [OWN], labels: { a: 'b' } }, true],
    ['its own finalizer added and another removed', { finalizers: ['x/y'] }, { finalizers: [OWN] }, true],
    ['its own finalizer put first', { finalizers: ['x/y'] }, { finalizers: [OWN, 'x/y'] }, true],
  ])('%s', (_label, before, after, matters) => {
    expect(ownChangeMatters({ type: 'MODIFY', oldObject: machine(before), newObject: machine({ ...after, resourceVersion: '2' }) }, OWN)).toBe(matters);
  });

  it('without a finalizer of its own, any finalizer change counts', () => {
    expect(ownChangeMatters({ type: 'MODIFY', oldObject: machine(), newObject: machine({ finalizers: [OWN], resourceVersion: '2' }) })).toBe(true);
  });
});
