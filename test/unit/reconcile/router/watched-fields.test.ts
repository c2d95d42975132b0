import { describe, expect, it } from 'vitest';
import { watchedFieldsChanged } from '../../../../functions/reconcile/router/watched-fields.js';
import type { Watch } from '../../../../functions/reconcile/engine/skeleton/types.js';
import { conditionOfPath, conditionPath, EVERY_CONDITION_STATUS, valueIsPath, valueTestOfPath } from '../../../../functions/reconcile/engine/skeleton/watch-fields.js';
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

  it.each<[string, ObjectChange, boolean]>([
    ['an insert with an ignored value', { type: 'INSERT', newObject: machine({ version: 'v1' }) }, false],
    ['a removal with one', { type: 'REMOVE', oldObject: machine({ version: 'v2' }) }, false],
    ['an insert with another value', { type: 'INSERT', newObject: machine({ version: 'v3' }) }, true],
    ['an insert without the field', { type: 'INSERT', newObject: machine({}) }, true],
    ['a change from an ignored value to another', { type: 'MODIFY', oldObject: machine({ version: 'v1' }), newObject: machine({ version: 'v3' }) }, true],
    ['a change between ignored values', { type: 'MODIFY', oldObject: machine({ version: 'v1' }), newObject: machine({ version: 'v2' }) }, false],
  ])('`ignore` of spec.version v1 and v2: %s → %s', (_name, change, expected) => {
    expect(watchedFieldsChanged({ ...watch, ignore: { path: 'spec.version', values: ['v1', 'v2'] } }, change)).toBe(expected);
  });
});

describe('`marks`: a watcher that marks what it evaluated', () => {
  const mark = { condition: 'Checked', unmarkedChanges: ['metadata.labels'] };
  const marking: Watch = { ...watch, marks: mark };
  const checked = (spec: Record<string, unknown>) =>
    machine(spec, { conditions: [{ type: 'Checked', status: 'False', reason: 'R', lastTransitionTime: '2026-01-01T00:00:00Z' }] });
  const modify = (before: StoredObject, after: StoredObject): ObjectChange => ({ type: 'MODIFY', oldObject: before, newObject: after });

  it.each<[string, boolean, ObjectChange]>([
    ['an unmarked object: a listed field changed', false, modify(machine({ version: 'v1' }), machine({ version: 'v2' }))],
    ['an unmarked object: an unmarked change', true, modify(machine({}, {}, { a: '1' }), machine({}, {}, { a: '2' }))],
    ['an unmarked object: inserted', true, { type: 'INSERT', newObject: machine({ version: 'v1' }) }],
    ['an unmarked object: removed', true, { type: 'REMOVE', oldObject: machine({ version: 'v1' }) }],
    ['a marked object: a listed field changed', true, modify(checked({ version: 'v1' }), checked({ version: 'v2' }))],
    ['a marked object: an unlisted field changed', false, modify(checked({ providerID: '' }), checked({ providerID: 'x' }))],
    ['the mark appearing alone (the watcher marking it)', true, modify(machine({ version: 'v1' }), checked({ version: 'v1' }))],
    ['the mark appearing with a listed change', true, modify(machine({ version: 'v1' }), checked({ version: 'v2' }))],
    ['the mark going with a listed change', true, modify(checked({ version: 'v1' }), machine({ version: 'v2' }))],
  ])('%s → %s', (_name, expected, change) => {
    expect(watchedFieldsChanged(marking, change)).toBe(expected);
  });
});

describe('condition paths in `changes`', () => {
  const withConditions = (...conditions: Array<[type: string, status: string, reason: string, message?: string]>) =>
    machine({}, { conditions: conditions.map(([type, status, reason, message]) => ({ type, status, reason, lastTransitionTime: '2026-01-01T00:00:00Z', ...(message ? { message } : {}) })) });
  const modify = (before: StoredObject, after: StoredObject): ObjectChange => ({ type: 'MODIFY', oldObject: before, newObject: after });
  const watching = (...changes: string[]): Watch => ({ ...watch, changes });

  it.each<[string, string, ObjectChange, boolean]>([
    ['the status changed', conditionPath('Ready'), modify(withConditions(['Ready', 'False', 'A']), withConditions(['Ready', 'True', 'B'])), true],
    ['the condition appeared', conditionPath('Ready'), modify(withConditions(), withConditions(['Ready', 'False', 'A'])), true],
    ['the condition went', conditionPath('Ready'), modify(withConditions(['Ready', 'True', 'A']), withConditions()), true],
    ['only the reason changed', conditionPath('Ready'), modify(withConditions(['Ready', 'False', 'A']), withConditions(['Ready', 'False', 'B'])), false],
    ['only the message changed', conditionPath('Ready'), modify(withConditions(['Ready', 'False', 'A', 'x']), withConditions(['Ready', 'False', 'A', 'y'])), false],
    ['another condition changed', conditionPath('Ready'), modify(withConditions(['Ready', 'True', 'A'], ['Other', 'False', 'A']), withConditions(['Ready', 'True', 'A'], ['Other', 'True', 'A'])), false],
    ['the named reason was taken', conditionPath('Ready', 'Gone'), modify(withConditions(['Ready', 'False', 'A']), withConditions(['Ready', 'False', 'Gone'])), true],
    ['the named reason was left', conditionPath('Ready', 'Gone'), modify(withConditions(['Ready', 'False', 'Gone']), withConditions(['Ready', 'False', 'A'])), true],
    ['a condition with the named reason appeared', conditionPath('Ready', 'Gone'), modify(withConditions(), withConditions(['Ready', 'False', 'Gone'])), true],
    ['one other reason became another', conditionPath('Ready', 'Gone'), modify(withConditions(['Ready', 'False', 'A']), withConditions(['Ready', 'False', 'B'])), false],
    ['the status changed, the named reason not held', conditionPath('Ready', 'Gone'), modify(withConditions(['Ready', 'False', 'A']), withConditions(['Ready', 'True', 'B'])), false],
    ['every condition: one changed status', EVERY_CONDITION_STATUS, modify(withConditions(['Ready', 'True', 'A'], ['Other', 'False', 'A']), withConditions(['Ready', 'True', 'A'], ['Other', 'True', 'A'])), true],
    ['every condition: one appeared', EVERY_CONDITION_STATUS, modify(withConditions(['Ready', 'True', 'A']), withConditions(['Ready', 'True', 'A'], ['Custom', 'False', 'A'])), true],
    ['every condition: one went', EVERY_CONDITION_STATUS, modify(withConditions(['Ready', 'True', 'A'], ['Custom', 'False', 'A']), withConditions(['Ready', 'True', 'A'])), true],
    ['every condition: the first appeared', EVERY_CONDITION_STATUS, modify(machine({}), withConditions(['Ready', 'False', 'A'])), true],
    ['every condition: only reasons and messages changed', EVERY_CONDITION_STATUS, modify(withConditions(['Ready', 'False', 'A', 'x'], ['Other', 'True', 'A']), withConditions(['Ready', 'False', 'B', 'y'], ['Other', 'True', 'C'])), false],
    ['every condition: the same ones in another order', EVERY_CONDITION_STATUS, modify(withConditions(['Ready', 'True', 'A'], ['Other', 'False', 'A']), withConditions(['Other', 'False', 'A'], ['Ready', 'True', 'A'])), false],
  ])('%s: %s → %s', (_name, path, change, expected) => {
    expect(watchedFieldsChanged(watching(path), change)).toBe(expected);
  });

  it.each([
    [conditionPath('Ready'), { type: 'Ready' }],
    [conditionPath('Ready', 'Gone'), { type: 'Ready', reason: 'Gone' }],
    [EVERY_CONDITION_STATUS, { type: '*' }],
    ['status.conditions[*=Gone]', undefined],
    ['status.conditions', undefined],
    ['status.conditions[]', undefined],
    ['status.conditions[Ready', undefined],
    ['spec.conditions[Ready]', undefined],
  ])('reads %s as %j', (path, expected) => {
    expect(conditionOfPath(path)).toEqual(expected);
  });
});

describe('value paths in `changes`', () => {
  const phased = (phase?: string) => machine({}, phase === undefined ? {} : { phase });
  const modify = (before: StoredObject, after: StoredObject): ObjectChange => ({ type: 'MODIFY', oldObject: before, newObject: after });
  const running: Watch = { ...watch, changes: [valueIsPath('status.phase', 'Running')] };

  it.each<[string, ObjectChange, boolean]>([
    ['the field took the value', modify(phased('Provisioned'), phased('Running')), true],
    ['the field left the value', modify(phased('Running'), phased('Deleting')), true],
    ['the field appeared with the value', modify(phased(), phased('Running')), true],
    ['the field went while it had the value', modify(phased('Running'), phased()), true],
    ['the field moved between other values', modify(phased('Pending'), phased('Provisioning')), false],
    ['the field appeared with another value', modify(phased(), phased('Pending')), false],
    ['nothing changed', modify(phased('Running'), phased('Running')), false],
  ])('%s → %s', (_name, change, expected) => {
    expect(watchedFieldsChanged(running, change)).toBe(expected);
  });

  it.each<[string, string, ObjectChange, boolean]>([
    ['a number took the value', valueIsPath('spec.replicas', '3'), modify(machine({ replicas: 2 }), machine({ replicas: 3 })), true],
    ['a boolean left the value', valueIsPath('spec.paused', 'true'), modify(machine({ paused: true }), machine({ paused: false })), true],
    ['an object at the path is no value', valueIsPath('spec.replicas', '3'), modify(machine({ replicas: { n: 3 } }), machine({ replicas: { n: 4 } })), false],
  ])('%s: %s', (_name, path, change, expected) => {
    expect(watchedFieldsChanged({ ...watch, changes: [path] }, change)).toBe(expected);
  });

  it.each<[string, { segments: string[]; value: string } | undefined]>([
    [valueIsPath('status.phase', 'Running'), { segments: ['status', 'phase'], value: 'Running' }],
    ['status.phase', undefined],
    ['status.phase=', undefined],
    [conditionPath('Ready', 'Gone'), undefined],
    ['status..phase=Running', undefined],
  ])('reads %s as %j', (path, expected) => {
    expect(valueTestOfPath(path)).toEqual(expected);
  });

  it('refuses to build a path that would not read back', () => {
    expect(() => valueIsPath('status.conditions[Ready]', 'True')).toThrow(/not a field path and value/);
  });
});
