import { describe, expect, it } from 'vitest';
import { ownChangeMatters } from '../../../../functions/reconcile/router/own-change-predicate.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';

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
    expect(ownChangeMatters({ type: 'MODIFY', oldObject: machine(before), newObject: machine({ ...after, resourceVersion: '2' }) }, { finalizer: OWN })).toBe(matters);
  });

  it('without a finalizer of its own, any finalizer change counts', () => {
    expect(ownChangeMatters({ type: 'MODIFY', oldObject: machine(), newObject: machine({ finalizers: [OWN], resourceVersion: '2' }) })).toBe(true);
  });
});

describe('a spec write that only fills in what the reconciler fills in itself is its own echo', () => {
  const FILLS = ['spec.providerID', 'spec.bootstrap.dataSecretName'];
  const withSpec = (spec: Record<string, unknown>, generation: number): StoredObject => ({
    ...machine({ generation, resourceVersion: String(generation) }),
    spec: { clusterName: 'c1', ...spec },
  });
  it.each<[string, Record<string, unknown>, Record<string, unknown>, boolean]>([
    ['providerID filled in', {}, { providerID: 'p://1' }, false],
    ['a nested path filled in', { bootstrap: { configRef: 'x' } }, { bootstrap: { configRef: 'x', dataSecretName: 's' } }, false],
    ['both filled in at once', {}, { providerID: 'p://1', bootstrap: { dataSecretName: 's' } }, false],
    ['providerID changed once set', { providerID: 'p://1' }, { providerID: 'p://2' }, true],
    ['providerID removed', { providerID: 'p://1' }, {}, true],
    ['providerID filled in with another spec change', {}, { providerID: 'p://1', version: 'v1.31.0' }, true],
    ['another spec field only', {}, { version: 'v1.31.0' }, true],
    ['a sibling of the nested path changed', { bootstrap: { configRef: 'x' } }, { bootstrap: { configRef: 'y', dataSecretName: 's' } }, true],
  ])('%s', (_label, before, after, matters) => {
    const change = { type: 'MODIFY' as const, oldObject: withSpec(before, 1), newObject: withSpec(after, 2) };
    expect(ownChangeMatters(change, { finalizer: OWN, fillsOwnSpec: FILLS })).toBe(matters);
  });

  it('without fillsOwnSpec every generation change counts', () => {
    const change = { type: 'MODIFY' as const, oldObject: withSpec({}, 1), newObject: withSpec({ providerID: 'p://1' }, 2) };
    expect(ownChangeMatters(change, { finalizer: OWN })).toBe(true);
  });
});

describe('a label write that only adds the labels the reconciler sets on itself is its own echo', () => {
  const FILLS = ['cluster.x-k8s.io/cluster-name'];
  it.each<[string, Record<string, string> | undefined, Record<string, string>, boolean]>([
    ['its label added', undefined, { 'cluster.x-k8s.io/cluster-name': 'c1' }, false],
    ['its label added beside others', { team: 'a' }, { team: 'a', 'cluster.x-k8s.io/cluster-name': 'c1' }, false],
    ['its label changed once set', { 'cluster.x-k8s.io/cluster-name': 'c1' }, { 'cluster.x-k8s.io/cluster-name': 'c2' }, true],
    ['its label removed', { 'cluster.x-k8s.io/cluster-name': 'c1' }, {}, true],
    ['its label added with another label', undefined, { 'cluster.x-k8s.io/cluster-name': 'c1', team: 'a' }, true],
    ['another label only', undefined, { team: 'a' }, true],
  ])('%s', (_label, before, after, matters) => {
    const change = { type: 'MODIFY' as const, oldObject: machine(before ? { labels: before } : {}), newObject: machine({ labels: after, resourceVersion: '2' }) };
    expect(ownChangeMatters(change, { fillsOwnLabels: FILLS })).toBe(matters);
  });

  it('without fillsOwnLabels every label change counts', () => {
    const change = { type: 'MODIFY' as const, oldObject: machine(), newObject: machine({ labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }, resourceVersion: '2' }) };
    expect(ownChangeMatters(change)).toBe(true);
  });
});

describe("a reconciler that makes its Cluster an owner of its own object hears nothing of that reference's appearing", () => {
  const ref = (kind: string, name: string, uid: string, apiVersion = 'cluster.x-k8s.io/v1beta2') => ({ apiVersion, kind, name, uid, controller: false, blockOwnerDeletion: true });
  const cluster = ref('Cluster', 'c1', 'uid-c1');
  const set = { ...ref('MachineSet', 'ms', 'uid-ms'), controller: true };
  type Refs = NonNullable<StoredObject['metadata']['ownerReferences']>;
  it.each<[string, Refs, Refs, boolean]>([
    ['the Cluster added', [], [cluster], false],
    ['the Cluster added beside a controller', [set], [set, cluster], false],
    ['an earlier Cluster of that name replaced (moved, recreated)', [ref('Cluster', 'c1', 'uid-old')], [cluster], false],
    ['the Cluster removed by someone else', [cluster], [], true],
    ['the Cluster added with another owner', [], [cluster, set], true],
    ['another owner only', [], [set], true],
    ['a kind named Cluster of another group', [], [ref('Cluster', 'c1', 'u', 'example.com/v1')], true],
  ])('%s', (_label, before, after, matters) => {
    const change = { type: 'MODIFY' as const, oldObject: machine({ ownerReferences: before }), newObject: machine({ ownerReferences: after, resourceVersion: '2' }) };
    expect(ownChangeMatters(change, { fillsOwnClusterOwner: true })).toBe(matters);
  });

  it('without fillsOwnClusterOwner every ownerReference change counts', () => {
    const change = { type: 'MODIFY' as const, oldObject: machine(), newObject: machine({ ownerReferences: [cluster], resourceVersion: '2' }) };
    expect(ownChangeMatters(change)).toBe(true);
  });
});

describe('a creation is heard of; a removal is not (the reconcile would find the object gone)', () => {
  it.each<[string, ObjectChange, boolean]>([
    ['a creation', { type: 'INSERT', newObject: machine() }, true],
    ['a removal after its finalizers went', { type: 'REMOVE', oldObject: machine({ deletionTimestamp: '2026-01-01T00:01:00Z' }) }, false],
    ['a removal of an object without finalizers', { type: 'REMOVE', oldObject: machine() }, false],
  ])('%s', (_label, change, matters) => {
    expect(ownChangeMatters(change, { finalizer: OWN })).toBe(matters);
  });
});

describe('a status write changing a condition the reconciler summarises wakes it (ADR 0173)', () => {
  const READS = { types: ['HealthCheckSucceeded'], typesListedAt: 'spec.readinessGates' } as const;
  type Conditions = { type: string; status: string; reason: string; message?: string }[];
  const withStatus = (conditions: Conditions, gates: string[], resourceVersion: string): StoredObject => ({
    ...machine({ resourceVersion }),
    spec: { clusterName: 'c1', readinessGates: gates.map((conditionType) => ({ conditionType })) },
    status: { conditions: conditions.map((c) => ({ ...c, lastTransitionTime: '2026-01-01T00:00:00Z' })) },
  });
  const hc = (status: string, reason: string, message?: string) => ({ type: 'HealthCheckSucceeded', status, reason, ...(message ? { message } : {}) });
  it.for<[string, Conditions, Conditions, string[], boolean]>([
    ['a health check marks the Machine for the first time', [], [hc('True', 'Healthy')], [], true],
    ['a health check turns False', [hc('True', 'Healthy')], [hc('False', 'UnhealthyNode')], [], true],
    ['only its message changes', [hc('False', 'UnhealthyNode', 'a')], [hc('False', 'UnhealthyNode', 'b')], [], true],
    ['the same condition written again', [hc('True', 'Healthy')], [hc('True', 'Healthy')], [], false],
    ['a gated condition appears', [], [{ type: 'example.com/Attached', status: 'True', reason: 'Done' }], ['example.com/Attached'], true],
    ['an ungated foreign condition appears', [], [{ type: 'example.com/Attached', status: 'True', reason: 'Done' }], [], false],
    ['its own Ready changes (its own echo)', [{ type: 'Ready', status: 'False', reason: 'NotReady' }], [{ type: 'Ready', status: 'True', reason: 'Ready' }], [], false],
  ])('%s → %s', ([, before, after, gates, matters]) => {
    const change: ObjectChange = { type: 'MODIFY', oldObject: withStatus(before, gates, '1'), newObject: withStatus(after, gates, '2') };
    expect(ownChangeMatters(change, { readsOwnConditions: READS })).toBe(matters);
  });

  it('without readsOwnConditions a status write wakes nothing', () => {
    const change: ObjectChange = { type: 'MODIFY', oldObject: withStatus([], [], '1'), newObject: withStatus([hc('False', 'UnhealthyNode')], [], '2') };
    expect(ownChangeMatters(change)).toBe(false);
  });
});
