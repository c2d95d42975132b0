import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { needsApply, withResource, withoutSet, withSet } from '../../../../functions/reconcile/addons/clusterresourceset/binding-entries.js';
import { normalizeResourceData, objectsOf } from '../../../../functions/reconcile/addons/clusterresourceset/resource-data.js';

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('normalizeResourceData (Cluster API normalizeData + computeHash)', () => {
  it.each([
    ['ConfigMap values in key order', { kind: 'ConfigMap', data: { b: 'B', a: 'A' } }, ['A', 'B'], sha('AB')],
    ['Secret values base64-decoded', { kind: 'Secret', data: { z: b64('two'), y: b64('one') } }, ['one', 'two'], sha('onetwo')],
    ['empty data', { kind: 'ConfigMap', data: {} }, [], sha('')],
  ])('%s', (_name, resource, values, hash) => {
    expect(normalizeResourceData(resource)).toEqual({ values, hash });
  });

  it.each([
    ['no data', { kind: 'ConfigMap' }, 'has no data'],
    ['a value that is not a string', { kind: 'ConfigMap', data: { a: 1 } }, 'data.a is not a string'],
  ])('refuses %s', (_name, resource, error) => {
    expect(normalizeResourceData(resource)).toEqual({ error });
  });

  it('hashes the same data the same way whatever the key order, and changed data differently', () => {
    const one = normalizeResourceData({ kind: 'ConfigMap', data: { a: 'x', b: 'y' } });
    const two = normalizeResourceData({ kind: 'ConfigMap', data: { b: 'y', a: 'x' } });
    const three = normalizeResourceData({ kind: 'ConfigMap', data: { a: 'x', b: 'z' } });
    expect(one).toEqual(two);
    expect(one).not.toEqual(three);
  });
});

describe('objectsOf (objsFromYamlData + SortForCreate)', () => {
  it.each<[string, string[], string[]]>([
    ['multi-document YAML, empty documents skipped', ['---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: kube-system}\n---\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n'], ['ConfigMap/a', 'Secret/b']],
    ['a JSON list', ['[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}]'], ['ConfigMap/j']],
    ['Namespaces and CRDs first, the rest in order', ['kind: Deployment\napiVersion: apps/v1\nmetadata: {name: d}\n---\nkind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nmetadata: {name: c}\n---\nkind: Namespace\napiVersion: v1\nmetadata: {name: n}\n'], ['Namespace/n', 'CustomResourceDefinition/c', 'Deployment/d']],
    ['values one after the other', ['kind: ConfigMap\napiVersion: v1\nmetadata: {name: first}', 'kind: Namespace\napiVersion: v1\nmetadata: {name: second}'], ['ConfigMap/first', 'Namespace/second']],
  ])('%s', (_name, values, expected) => {
    const objects = objectsOf(values);
    expect(Array.isArray(objects) ? objects.map((o) => `${o.kind}/${o.metadata.name}`) : objects).toEqual(expected);
  });

  it.each([
    ['YAML that does not parse', ['kind: [unclosed']],
    ['a document that is not an object', ['just a string']],
    ['an object without metadata.name', ['apiVersion: v1\nkind: ConfigMap\nmetadata: {}']],
  ])('refuses %s', (_name, values) => {
    expect(objectsOf(values)).toEqual({ error: expect.stringMatching(/^value 1: /) });
  });
});

describe('needsApply (ApplyOnce / Reconcile)', () => {
  const applied = { kind: 'ConfigMap' as const, name: 'a', applied: true, hash: 'sha256:1' };
  it.each([
    ['ApplyOnce', undefined, 'sha256:1', true],
    ['ApplyOnce', { ...applied, applied: false }, 'sha256:1', true],
    ['ApplyOnce', applied, 'sha256:1', false],
    ['ApplyOnce', applied, 'sha256:2', false],
    ['Reconcile', undefined, 'sha256:1', true],
    ['Reconcile', applied, 'sha256:1', false],
    ['Reconcile', applied, 'sha256:2', true],
    ['Reconcile', { ...applied, applied: false }, 'sha256:1', true],
  ] as const)('%s, recorded %o, hash %s → %s', (strategy, recorded, hash, expected) => {
    expect(needsApply(strategy, recorded, hash)).toBe(expected);
  });
});

describe('binding entries', () => {
  it('replace one resource of one set and leave the others', () => {
    const start = withSet([{ clusterResourceSetName: 'other', resources: [{ kind: 'ConfigMap', name: 'a', applied: true }] }], 'crs');
    const once = withResource(start, 'crs', { kind: 'ConfigMap', name: 'a', applied: false });
    const twice = withResource(once, 'crs', { kind: 'ConfigMap', name: 'a', applied: true, hash: 'sha256:1' });
    expect(twice).toEqual([
      { clusterResourceSetName: 'other', resources: [{ kind: 'ConfigMap', name: 'a', applied: true }] },
      { clusterResourceSetName: 'crs', resources: [{ kind: 'ConfigMap', name: 'a', applied: true, hash: 'sha256:1' }] },
    ]);
    expect(withoutSet(twice, 'crs').map((b) => b.clusterResourceSetName)).toEqual(['other']);
    expect(withSet(twice, 'crs')).toEqual(twice);
  });
});
