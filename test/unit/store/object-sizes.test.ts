import { describe, expect, it } from 'vitest';
import { ObjectSizes } from '../../../shared/store/object-sizes.js';
import type { KubeObject } from '../../../shared/contracts/object.js';

function machine(resourceVersion: string | undefined, note: string, uid: string | null = 'u-1'): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns', ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { note },
  };
}

describe('ObjectSizes', () => {
  it.each([
    ['a stored version', machine('1', 'a')],
    ['a write input without a uid', machine(undefined, 'a', null)],
    ['an object without a resourceVersion', machine(undefined, 'abc')],
  ])('measures %s as its JSON length', (_name, obj) => {
    expect(new ObjectSizes().bytesOf(obj)).toBe(JSON.stringify(obj).length);
  });

  it('measures a new version of the same uid again, not the remembered one', () => {
    const sizes = new ObjectSizes();
    const first = machine('1', 'short');
    const second = machine('2', 'a good deal longer than before');
    expect(sizes.bytesOf(first)).toBe(JSON.stringify(first).length);
    expect(sizes.bytesOf(second)).toBe(JSON.stringify(second).length);
    expect(sizes.size).toBe(1);
  });

  it('answers a version it measured from memory (a same-version copy is never serialized again)', () => {
    const sizes = new ObjectSizes();
    const stored = machine('7', 'x');
    const bytes = sizes.bytesOf(stored);
    // The same uid and resourceVersion: a store hands out copies of one stored version, so a
    // different body under it would be a store bug; the memo's answer shows it was not re-measured.
    expect(sizes.bytesOf(machine('7', 'a much longer body that was not measured'))).toBe(bytes);
  });

  it('does not remember inputs without a uid or a resourceVersion', () => {
    const sizes = new ObjectSizes();
    sizes.bytesOf(machine(undefined, 'a'));
    sizes.bytesOf(machine('1', 'a', null));
    expect(sizes.size).toBe(0);
  });

  it('starts over past its bound, and measures right after', () => {
    const sizes = new ObjectSizes(2);
    for (const uid of ['u-1', 'u-2', 'u-3']) sizes.bytesOf(machine('1', uid, uid));
    expect(sizes.size).toBe(1);
    const again = machine('1', 'a longer body under the same version', 'u-1');
    expect(sizes.bytesOf(again)).toBe(JSON.stringify(again).length);
  });
});
