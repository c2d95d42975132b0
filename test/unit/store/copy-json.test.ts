import { describe, expect, it } from 'vitest';
import { copyJson } from '../../../shared/contracts/json.js';

describe('copyJson', () => {
  it.each<[string, unknown]>([
    ['a primitive', 'text'],
    ['null', null],
    ['a nested object', { metadata: { name: 'a', labels: { x: 'y' } }, spec: { replicas: 3, paused: false, list: [1, 'two', { three: 3 }] } }],
    ['undefined values in an object (left out)', { a: undefined, b: { c: undefined, d: 1 } }],
    ['undefined in an array (null)', { items: [1, undefined, 3] }],
    ['an empty object and array', { a: {}, b: [] }],
  ])('%s: equals a JSON round trip', (_name, value) => {
    expect(copyJson(value)).toStrictEqual(JSON.parse(JSON.stringify(value)));
  });

  it('shares nothing with the source', () => {
    const source = { spec: { list: [{ a: 1 }] }, metadata: { labels: { x: 'y' } } };
    const copy = copyJson(source);
    copy.spec.list[0] = { a: 2 };
    copy.metadata.labels.x = 'z';
    expect(source).toEqual({ spec: { list: [{ a: 1 }] }, metadata: { labels: { x: 'y' } } });
  });

  it('keeps a "__proto__" key a property: the copy gets no prototype from the data', () => {
    const source: unknown = JSON.parse('{"spec": {"__proto__": {"polluted": true}}}');
    const copy = copyJson(source);
    expect(JSON.stringify(copy)).toBe('{"spec":{"__proto__":{"polluted":true}}}');
    const spec = (copy as { spec: object }).spec;
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect('polluted' in spec).toBe(false);
  });
});
