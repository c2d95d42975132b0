import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../../functions/api/input/json-text.js';
import { MAX_NESTING_DEPTH, checkUntrustedStructure } from '../../../functions/api/input/structure-limits.js';
import { BadRequestError } from '../../../shared/errors/index.js';

function causeOf(run: () => unknown): { field?: string; reason?: string } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof BadRequestError) return error.causes[0] ?? { reason: 'none' };
    throw error;
  }
  return undefined;
}

describe('parseJsonText', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"metadata":{"labels":{"x":"1","y":"2","x":"3"}}}', 'metadata.labels.x'],
    ['{"spec":{"items":[{"k":1},{"k":1,"k":2}]}}', 'spec.items[1].k'],
    ['{"a\\u0062":1,"ab":2}', 'ab'],
    ['{"a":{"b":1},"c":{"b":2},"a":3}', 'a'],
  ])('refuses the duplicate key in %s at %s', (text, field) => {
    expect(causeOf(() => parseJsonText(text, 'body'))).toMatchObject({ field, reason: 'FieldValueDuplicate' });
  });

  it.each([
    ['{"a":1,"b":{"a":2},"c":[{"a":1},{"a":1}]}'],
    ['{"s":"{\\"a\\":1,\\"a\\":2}"}'],
    ['[1,[2,[3]],{"x":"]}"}]'],
    [`${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`],
  ])('accepts %s', (text) => {
    expect(parseJsonText(text, 'body')).toEqual(JSON.parse(text));
  });

  it.each([MAX_NESTING_DEPTH + 1, 10_000, 1_000_000])('refuses JSON nested %i levels with a 400, not a stack overflow', (depth) => {
    expect(causeOf(() => parseJsonText(`${'['.repeat(depth)}${']'.repeat(depth)}`, 'body'))).toMatchObject({ reason: 'FieldValueInvalid' });
  });

  it('still reports syntax errors as 400', () => {
    expect(() => parseJsonText('{"a":', 'body')).toThrow(BadRequestError);
  });
});

describe('checkUntrustedStructure', () => {
  it.each([
    [JSON.parse('{"__proto__":{"x":1}}'), '__proto__'],
    [JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}'), 'metadata.labels.__proto__'],
    [JSON.parse('[{"a":[{"__proto__":null}]}]'), '[0].a[0].__proto__'],
  ])('refuses a __proto__ key (%#) naming %s', (value, field) => {
    expect(causeOf(() => checkUntrustedStructure(value, 'body'))).toMatchObject({ field, reason: 'FieldValueForbidden' });
  });

  it('accepts constructor and prototype as ordinary keys', () => {
    expect(() => checkUntrustedStructure({ data: { constructor: 'a', prototype: 'b' } }, 'body')).not.toThrow();
  });

  it('refuses values nested deeper than the limit', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_NESTING_DEPTH + 5; i++) deep = { a: deep };
    expect(causeOf(() => checkUntrustedStructure(deep, 'body'))).toMatchObject({ reason: 'FieldValueInvalid' });
  });
});
