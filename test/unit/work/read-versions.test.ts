import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../shared/ports/object-store.js';
import { causeOf, hasRead } from '../../../shared/work/read-versions.js';

describe('whether a reconcile has seen the change that made a version', () => {
  const read = new Map([
    ['u1', '1796000000000100'],
    ['u2', 'opaque-7'],
  ]);
  it.each<[string, string, string, boolean]>([
    ['the version it read', 'u1', '1796000000000100', true],
    ['an older version of an object it read later', 'u1', '1796000000000099', true],
    ['a newer version than it read', 'u1', '1796000000000101', false],
    ['an object it did not read', 'u3', '1796000000000100', false],
    ['an opaque version it read', 'u2', 'opaque-7', true],
    ['another opaque version (not ordered)', 'u2', 'opaque-6', false],
    ['an opaque cause of a numbered read', 'u1', 'opaque-1', false],
  ])('%s → %s', (_label, uid, resourceVersion, seen) => {
    expect(hasRead(read, { uid, resourceVersion })).toBe(seen);
  });

  it('has seen nothing without a record of what it read', () => {
    expect(hasRead(undefined, { uid: 'u1', resourceVersion: '1796000000000100' })).toBe(false);
  });
});

describe('the cause a change gives its requests', () => {
  const version = (resourceVersion: string): StoredObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  });
  it.each<[string, ObjectChange, ReturnType<typeof causeOf>]>([
    ['a creation: the version it made', { type: 'INSERT', newObject: version('5') }, { cause: { uid: 'u1', resourceVersion: '5' } }],
    ['a modification: the new version', { type: 'MODIFY', oldObject: version('5'), newObject: version('6') }, { cause: { uid: 'u1', resourceVersion: '6' } }],
    ['a removal: none, so what it wakes always runs', { type: 'REMOVE', oldObject: version('6') }, {}],
  ])('%s', (_label, change, expected) => {
    expect(causeOf(change)).toEqual(expected);
  });
});
