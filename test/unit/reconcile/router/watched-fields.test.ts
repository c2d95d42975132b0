import { describe, expect, it } from 'vitest';
import { watchedFieldsChanged } from '../../../../functions/reconcile/router/route-change.js';
import type { Watch } from '../../../../functions/reconcile/engine/skeleton/types.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';

const machine = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, labels: Record<string, string> = {}): StoredObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'default', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels },
  spec,
  status,
});

const watch: Watch = {
  kind: { group: 'cluster.x-k8s.io', kind: 'Machine' },
  by: 'reference',
  field: 'spec.bootstrap.configRef',
  changes: ['spec.version', 'metadata.labels'],
};

describe('watch `changes` predicate', () => {
  it.each<[string, ObjectChange, boolean]>([
    ['insert always passes', { type: 'INSERT', newObject: machine({ version: 'v1' }) }, true],
    ['remove always passes', { type: 'REMOVE', oldObject: machine({ version: 'v1' }) }, true],
    ['a listed field changed', { type: 'MODIFY', oldObject: machine({ version: 'v1' }), newObject: machine({ version: 'v2' }) }, true],
    ['a listed map changed', { type: 'MODIFY', oldObject: machine({}, {}, { a: '1' }), newObject: machine({}, {}, { a: '2' }) }, true],
    ['only status changed', { type: 'MODIFY', oldObject: machine({ version: 'v1' }, { phase: 'Pending' }), newObject: machine({ version: 'v1' }, { phase: 'Running' }) }, false],
    ['an unlisted spec field changed', { type: 'MODIFY', oldObject: machine({ version: 'v1', providerID: '' }), newObject: machine({ version: 'v1', providerID: 'x' }) }, false],
  ])('%s → %s', (_name, change, expected) => {
    expect(watchedFieldsChanged(watch, change)).toBe(expected);
  });

  it('a watch without `changes` passes every change', () => {
    const { changes: _ignored, ...all } = watch;
    const change: ObjectChange = { type: 'MODIFY', oldObject: machine({}, { phase: 'a' }), newObject: machine({}, { phase: 'b' }) };
    expect(watchedFieldsChanged(all, change)).toBe(true);
  });

  it.each<[string, ObjectChange, boolean]>([
    ['a removal passes a removals-only watch', { type: 'REMOVE', oldObject: machine({ version: 'v1' }) }, true],
    ['an insert does not', { type: 'INSERT', newObject: machine({ version: 'v1' }) }, false],
    ['a modification of a listed field does not', { type: 'MODIFY', oldObject: machine({ version: 'v1' }), newObject: machine({ version: 'v2' }) }, false],
  ])('`on: [REMOVE]`: %s', (_name, change, expected) => {
    expect(watchedFieldsChanged({ ...watch, on: ['REMOVE'] }, change)).toBe(expected);
  });
});
