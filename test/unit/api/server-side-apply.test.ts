import { describe, expect, it } from 'vitest';
import { type FieldSet, difference, fieldSetFromJson, fieldSetToJson, intersection, pathText, union } from '../../../functions/api/apply/field-set.js';
import { serverSideApply } from '../../../functions/api/apply/server-side-apply.js';
import { type JsonRecord, isRecord } from '../../../shared/contracts/json.js';
import { type KindInfo, defaultKinds } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { ConflictError } from '../../../shared/errors/index.js';

/**
 * Server-side apply as structured-merge-diff does it, on values: the fields a configuration owns
 * (fieldsV1), conflicts with other managers, forced ownership, removal of what a manager stopped
 * applying, and merging by the CRD's list types (list-maps by key, sets by value, atomic lists whole).
 */

function kind(group: string, name: string): KindInfo {
  const info = defaultKinds.get(group, name);
  if (!info) throw new Error(`${group}/${name} is not served`);
  return info;
}

const CLUSTER = kind('cluster.x-k8s.io', 'Cluster');
const MD = kind('cluster.x-k8s.io', 'MachineDeployment');
const NOW = '2026-12-03T01:00:00Z';

function set(json: unknown): FieldSet {
  const parsed = fieldSetFromJson(json);
  if (!parsed) throw new Error(`not a field set: ${JSON.stringify(json)}`);
  return parsed;
}

function apply(info: KindInfo, live: JsonRecord | undefined, config: JsonRecord, manager = 'flux', force = false): JsonRecord {
  const stored: KubeObject | undefined = live === undefined ? undefined : { apiVersion: String(live.apiVersion), kind: String(live.kind), metadata: { name: 'c1', namespace: 'default', ...(isRecord(live.metadata) ? live.metadata : {}) }, ...Object.fromEntries(Object.entries(live).filter(([k]) => !['apiVersion', 'kind', 'metadata'].includes(k))) };
  return serverSideApply({ info, live: stored, config, name: 'c1', namespace: 'default', manager, force, now: NOW });
}

function managedFields(object: JsonRecord): unknown[] {
  return isRecord(object.metadata) && Array.isArray(object.metadata.managedFields) ? object.metadata.managedFields : [];
}

const clusterConfig = (spec: JsonRecord, metadata: JsonRecord = {}): JsonRecord => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', ...metadata }, spec });

describe('field sets (fieldsV1)', () => {
  it.each([
    ['a leaf', { 'f:spec': { 'f:paused': {} } }],
    ['a list-map item owned with its fields', { 'f:spec': { 'f:taints': { 'k:{"effect":"NoSchedule","key":"a"}': { '.': {}, 'f:key': {}, 'f:effect': {} } } } }],
    ['a set value', { 'f:metadata': { 'f:finalizers': { 'v:"a"': {} } } }],
  ])('%s reads and writes back the same JSON', (_what, json) => {
    expect(fieldSetToJson(set(json))).toEqual(json);
  });

  it.each([['a key without a prefix', { spec: {} }], ['a child that is not an object', { 'f:spec': 1 }], ['a list', []]])('%s is not a field set', (_what, json) => {
    expect(fieldSetFromJson(json)).toBeUndefined();
  });

  it('union, difference and intersection keep members and prune what empties', () => {
    const a = set({ 'f:spec': { 'f:a': {}, 'f:b': {} } });
    const b = set({ 'f:spec': { 'f:b': {}, 'f:c': {} } });
    expect(fieldSetToJson(union(a, b))).toEqual({ 'f:spec': { 'f:a': {}, 'f:b': {}, 'f:c': {} } });
    expect(fieldSetToJson(difference(a, b))).toEqual({ 'f:spec': { 'f:a': {} } });
    expect(fieldSetToJson(intersection(a, b))).toEqual({ 'f:spec': { 'f:b': {} } });
    expect(fieldSetToJson(difference(a, a))).toEqual({});
  });

  it.each([
    [['f:spec', 'f:replicas'], '.spec.replicas'],
    [['f:spec', 'f:taints', 'k:{"effect":"NoSchedule","key":"a"}', 'f:value'], '.spec.taints[effect="NoSchedule",key="a"].value'],
    [['f:metadata', 'f:finalizers', 'v:"x"'], '.metadata.finalizers[="x"]'],
  ])('the path %j prints as %s', (path, text) => {
    expect(pathText(path)).toBe(text);
  });
});

describe('server-side apply', () => {
  it('creates from the configuration and records what it set, without identity or status', () => {
    const created = apply(CLUSTER, undefined, { ...clusterConfig({ paused: true }, { labels: { team: 'a' }, uid: 'x' }), status: { phase: 'Provisioned' } });
    expect(created).toMatchObject({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default', labels: { team: 'a' } }, spec: { paused: true } });
    expect(created.status).toBeUndefined();
    expect(managedFields(created)).toEqual([
      { manager: 'flux', operation: 'Apply', apiVersion: 'cluster.x-k8s.io/v1beta2', time: NOW, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:team': {} } }, 'f:spec': { 'f:paused': {} } } },
    ]);
  });

  it('the same configuration again changes nothing, not even the time', () => {
    const first = apply(CLUSTER, undefined, clusterConfig({ paused: true }));
    const again = serverSideApply({ info: CLUSTER, live: toStored(first), config: clusterConfig({ paused: true }), name: 'c1', namespace: 'default', manager: 'flux', force: false, now: '2026-12-04T00:00:00Z' });
    expect(again).toEqual(first);
  });

  it('a field the manager stopped applying is removed; one another manager owns stays', () => {
    const live = apply(CLUSTER, undefined, clusterConfig({ paused: true, availabilityGates: [{ conditionType: 'A' }] }, { labels: { a: '1', b: '2' } }));
    const shared = apply(CLUSTER, live, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { labels: { b: '2' } } }, 'helm');
    const after = apply(CLUSTER, shared, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1' } });
    expect(after.spec).toBeUndefined();
    expect(after.metadata).toMatchObject({ labels: { b: '2' } });
    expect(isRecord(after.metadata) && isRecord(after.metadata.labels) && 'a' in after.metadata.labels).toBe(false);
    expect(managedFields(after).map((e) => isRecord(e) && e.manager)).toEqual(['helm']);
  });

  it('a field another manager set to another value is a conflict naming it, the manager and its version', () => {
    const live = apply(MD, undefined, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', spec: { clusterName: 'c1', replicas: 1 } }, 'kubectl');
    const config = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', spec: { clusterName: 'c1', replicas: 3 } };
    let thrown: unknown;
    try {
      apply(MD, live, config, 'flux');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConflictError);
    expect(thrown).toMatchObject({
      message: 'Apply failed with 1 conflict: conflict with "kubectl" using cluster.x-k8s.io/v1beta2: .spec.replicas',
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl" using cluster.x-k8s.io/v1beta2', field: '.spec.replicas' }],
    });
    const forced = apply(MD, live, config, 'flux', true);
    expect(forced.spec).toMatchObject({ replicas: 3 });
    expect(managedFields(forced)).toMatchObject([
      { manager: 'kubectl', fieldsV1: { 'f:spec': { 'f:clusterName': {} } } },
      { manager: 'flux', fieldsV1: { 'f:spec': { 'f:clusterName': {}, 'f:replicas': {} } } },
    ]);
  });

  it("merges a list-map by its keys, keeping other managers' items and dropping its own old ones", () => {
    const md = (name: string, cls: string) => ({ name, class: cls });
    const live = apply(CLUSTER, undefined, clusterConfig({ topology: { classRef: { name: 'cc' }, version: 'v1.32.0', workers: { machineDeployments: [md('a', 'x'), md('b', 'x')] } } }));
    const other = apply(CLUSTER, live, clusterConfig({ topology: { workers: { machineDeployments: [md('c', 'y')] } } }), 'team-c');
    const after = apply(CLUSTER, other, clusterConfig({ topology: { classRef: { name: 'cc' }, version: 'v1.32.0', workers: { machineDeployments: [md('b', 'z'), md('d', 'x')] } } }));
    expect(after.spec).toMatchObject({ topology: { workers: { machineDeployments: [md('b', 'z'), md('c', 'y'), md('d', 'x')] } } });
    expect(managedFields(after).map((e) => isRecord(e) && e.manager)).toEqual(['flux', 'team-c']);
    expect(managedFields(after)[0]).toMatchObject({
      manager: 'flux',
      fieldsV1: { 'f:spec': { 'f:topology': { 'f:workers': { 'f:machineDeployments': { 'k:{"name":"b"}': { '.': {}, 'f:name': {}, 'f:class': {} }, 'k:{"name":"d"}': { '.': {}, 'f:name': {}, 'f:class': {} } } } } } },
    });
  });

  it('an empty map owns nothing: no entry, and the next apply of it is no change', () => {
    const live = apply(CLUSTER, undefined, clusterConfig({ paused: true }), 'kubectl');
    const first = apply(CLUSTER, live, clusterConfig({}, { labels: {} }));
    expect(managedFields(first).map((e) => isRecord(e) && e.manager)).toEqual(['kubectl']);
    expect(apply(CLUSTER, first, clusterConfig({}, { labels: {} }))).toEqual(first);
  });

  it('never removes identity, whatever a stored entry claims to own', () => {
    const claimed = { manager: 'flux', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:name': {}, 'f:uid': {} }, 'f:apiVersion': {}, 'f:kind': {}, 'f:spec': { 'f:paused': {} } } };
    const live = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { uid: 'u-1', managedFields: [claimed] }, spec: { paused: true } };
    const after = apply(CLUSTER, live, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1' } });
    expect(after).toMatchObject({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', uid: 'u-1' } });
    expect(after.spec).toBeUndefined();
    expect(managedFields(after)).toEqual([]);
  });

  it('merges a set by value (finalizers) and replaces an atomic list whole', () => {
    const live = apply(CLUSTER, undefined, clusterConfig({ clusterNetwork: { pods: { cidrBlocks: ['10.0.0.0/16', '10.1.0.0/16'] } } }, { finalizers: ['a.example.com/x'] }), 'one');
    const after = apply(CLUSTER, live, clusterConfig({ clusterNetwork: { pods: { cidrBlocks: ['10.2.0.0/16'] } } }, { finalizers: ['b.example.com/y'] }), 'two', true);
    expect(after.metadata).toMatchObject({ finalizers: ['a.example.com/x', 'b.example.com/y'] });
    expect(after.spec).toMatchObject({ clusterNetwork: { pods: { cidrBlocks: ['10.2.0.0/16'] } } });
  });
});

function toStored(object: JsonRecord): KubeObject {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return { ...object, apiVersion: String(object.apiVersion), kind: String(object.kind), metadata: { ...metadata, name: String(metadata.name) } };
}
