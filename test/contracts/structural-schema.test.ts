import { describe, expect, it } from 'vitest';
import { celRulesOf, type StructuralSchema, zodFromStructural } from '../../shared/contracts/schemas/common/structural-schema.js';

const cases: [string, StructuralSchema, unknown, boolean][] = [
  ['int-or-string takes an int', { 'x-kubernetes-int-or-string': true }, 3, true],
  ['int-or-string takes a string', { 'x-kubernetes-int-or-string': true }, '30%', true],
  ['int-or-string refuses a bool', { 'x-kubernetes-int-or-string': true }, true, false],
  ['int32 refuses 2^31', { type: 'integer', format: 'int32' }, 2 ** 31, false],
  ['integer refuses 1.5', { type: 'integer' }, 1.5, false],
  ['pattern', { type: 'string', pattern: '^h-[0-9a-f]{3}$' }, 'h-0af', true],
  ['pattern refuses', { type: 'string', pattern: '^h-[0-9a-f]{3}$' }, 'h-xyz', false],
  ['enum', { type: 'string', enum: ['a', 'b'] }, 'c', false],
  ['unknown fields refused', { type: 'object', properties: { a: { type: 'string' } } }, { b: 1 }, false],
  ['unknown fields kept when preserved', { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true }, { b: 1 }, true],
  ['required', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, {}, false],
  ['a map of strings', { type: 'object', additionalProperties: { type: 'string' } }, { x: 'y' }, true],
  ['a map of strings refuses a number', { type: 'object', additionalProperties: { type: 'string' } }, { x: 1 }, false],
  ['minProperties', { type: 'object', minProperties: 1, properties: { a: { type: 'string' } } }, {}, false],
  [
    'list-map keys must be unique',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } },
    [{ name: 'a' }, { name: 'a' }],
    false,
  ],
  ['a set refuses duplicates', { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, ['a', 'a'], false],
  ['maxItems', { type: 'array', maxItems: 1, items: { type: 'string' } }, ['a', 'b'], false],
  ['allOf enums constrain the same value', { type: 'string', allOf: [{ enum: ['', 'Open'] }] }, 'Closed', false],
  ['date-time', { type: 'string', format: 'date-time' }, 'yesterday', false],
];

describe('Kubernetes structural schemas as zod', () => {
  it.each(cases)('%s', (_name, schema, value, accepted) => {
    expect(zodFromStructural(schema).safeParse(value).success).toBe(accepted);
  });

  it('applies defaults where the enclosing object is present, as the API server does', () => {
    const schema: StructuralSchema = { type: 'object', properties: { inner: { type: 'object', properties: { mode: { type: 'string', default: 'on' } } } } };
    expect(zodFromStructural(schema).parse({ inner: {} })).toEqual({ inner: { mode: 'on' } });
    expect(zodFromStructural(schema).parse({})).toEqual({});
  });

  it('lists the CEL rules it does not evaluate, with their paths', () => {
    const schema: StructuralSchema = { type: 'object', properties: { id: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('cagw-')" }] } } };
    expect(celRulesOf(schema)).toEqual([{ path: '.id', rule: "self.startsWith('cagw-')" }]);
  });
});
