import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_PATCH_OPERATIONS, applyJsonPatch } from '../../../functions/api/patch/json-patch.js';
import { applyMergePatch } from '../../../functions/api/patch/merge-patch.js';
import { ApiError, TooLargeError } from '../../../shared/errors/index.js';

const polluted = () => Object.getOwnPropertyNames(Object.prototype).filter((k) => ['x', 'y', 'polluted'].includes(k));

afterEach(() => {
  expect(polluted()).toEqual([]);
});

describe('applyJsonPatch (RFC 6902)', () => {
  it.each([
    ['add to an object', { a: 1 }, [{ op: 'add', path: '/b', value: 2 }], { a: 1, b: 2 }],
    ['add to an array end', { a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }], { a: [1, 2] }],
    ['insert into an array', { a: [1, 3] }, [{ op: 'add', path: '/a/1', value: 2 }], { a: [1, 2, 3] }],
    ['replace', { a: 1 }, [{ op: 'replace', path: '/a', value: 3 }], { a: 3 }],
    ['remove', { a: 1, b: 2 }, [{ op: 'remove', path: '/a' }], { b: 2 }],
    ['move', { a: { x: 1 }, b: {} }, [{ op: 'move', from: '/a/x', path: '/b/x' }], { a: {}, b: { x: 1 } }],
    ['copy', { a: [1] }, [{ op: 'copy', from: '/a', path: '/b' }], { a: [1], b: [1] }],
    ['escaped keys', { 'a/b': 1, 'c~d': 2 }, [{ op: 'remove', path: '/a~1b' }, { op: 'replace', path: '/c~0d', value: 3 }], { 'c~d': 3 }],
    ['constructor as an own key', { data: {} }, [{ op: 'add', path: '/data/constructor', value: 'v' }], { data: { constructor: 'v' } }],
  ])('%s', (_name, document, patch, expected) => {
    expect(applyJsonPatch(document, patch)).toEqual(expected);
  });

  it.each([
    ['/__proto__/x'],
    ['/metadata/__proto__'],
    ['/constructor/prototype/x'],
    ['/metadata/constructor/prototype/polluted'],
  ])('never reaches a prototype through %s', (path) => {
    expect(() => applyJsonPatch({ metadata: {} }, [{ op: 'add', path, value: 1 }])).toThrow(ApiError);
  });

  it('copy from an inherited property does not exist', () => {
    expect(() => applyJsonPatch({ a: {} }, [{ op: 'copy', from: '/a/constructor', path: '/b' }])).toThrow(/does not exist/);
  });

  it('refuses a doubling copy chain before it grows (413)', () => {
    const ops: unknown[] = [{ op: 'add', path: '/x', value: 'a'.repeat(40) }];
    for (let i = 0; i < 24; i++) ops.push({ op: 'copy', from: '/x', path: `/x${i}` }, { op: 'copy', from: '', path: '/x' });
    expect(() => applyJsonPatch({}, ops)).toThrow(TooLargeError);
  });

  it('refuses more operations than Kubernetes allows', () => {
    const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '', value: {} }));
    expect(() => applyJsonPatch({}, ops)).toThrow(TooLargeError);
  });

  it('refuses to move a value into itself', () => {
    expect(() => applyJsonPatch({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }])).toThrow(/into itself/);
  });
});

describe('applyMergePatch (RFC 7386)', () => {
  it('keeps a __proto__ key an own property and never swaps the prototype', () => {
    const result = applyMergePatch({ a: 1 }, JSON.parse('{"__proto__":{"polluted":1}}'));
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result as object, '__proto__')).toBe(true);
  });
});
