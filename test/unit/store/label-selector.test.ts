import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../shared/errors/index.js';
import type { LabelSelectorTerm } from '../../../shared/ports/object-store.js';
import { matchesLabelSelector, parseLabelSelector } from '../../../shared/store/label-selector.js';

describe('parseLabelSelector', () => {
  it.each<[string, LabelSelectorTerm[]]>([
    ['', []],
    ['a=b', [{ key: 'a', operator: 'Equals', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: 'Equals', values: ['b'] }]],
    ['a = ', [{ key: 'a', operator: 'Equals', values: [''] }]],
    ['c!=d', [{ key: 'c', operator: 'NotEquals', values: ['d'] }]],
    ['e in (x, y)', [{ key: 'e', operator: 'In', values: ['x', 'y'] }]],
    ['f notin (z)', [{ key: 'f', operator: 'NotIn', values: ['z'] }]],
    ['g', [{ key: 'g', operator: 'Exists', values: [] }]],
    ['!h', [{ key: 'h', operator: 'DoesNotExist', values: [] }]],
    ['cluster.x-k8s.io/cluster-name=c1', [{ key: 'cluster.x-k8s.io/cluster-name', operator: 'Equals', values: ['c1'] }]],
    [
      'a=b,c!=d,e in (x,y),f notin (z),g,!h',
      [
        { key: 'a', operator: 'Equals', values: ['b'] },
        { key: 'c', operator: 'NotEquals', values: ['d'] },
        { key: 'e', operator: 'In', values: ['x', 'y'] },
        { key: 'f', operator: 'NotIn', values: ['z'] },
        { key: 'g', operator: 'Exists', values: [] },
        { key: 'h', operator: 'DoesNotExist', values: [] },
      ],
    ],
  ])('parses %j', (selector, expected) => {
    expect(parseLabelSelector(selector)).toEqual(expected);
  });

  it.each(['a=b,', ',a', 'a in (x', 'a in x)', 'a=b=c', '!', 'a b', 'a=(x)', `a=${'v'.repeat(64)}`, `${'k'.repeat(64)}=v`, 'a in (x y)', '-a=b'])(
    'rejects %j with BadRequestError',
    (selector) => {
      expect(() => parseLabelSelector(selector)).toThrow(BadRequestError);
    },
  );
});

describe('matchesLabelSelector', () => {
  const labels = { env: 'prod', tier: 'cp' };
  it.each<[string, boolean]>([
    ['env=prod', true],
    ['env=dev', false],
    ['env!=dev', true],
    ['missing!=x', true],
    ['env in (dev,prod)', true],
    ['env in (dev)', false],
    ['env notin (dev)', true],
    ['missing notin (dev)', true],
    ['missing in (dev)', false],
    ['env', true],
    ['missing', false],
    ['!missing', true],
    ['!env', false],
    ['env=prod,tier=cp', true],
    ['env=prod,tier=worker', false],
    ['', true],
  ])('%j on env=prod,tier=cp is %s', (selector, expected) => {
    expect(matchesLabelSelector(labels, parseLabelSelector(selector))).toBe(expected);
  });

  it('treats missing labels as an empty set', () => {
    expect(matchesLabelSelector(undefined, parseLabelSelector('!a,b!=c'))).toBe(true);
    expect(matchesLabelSelector(undefined, parseLabelSelector('a'))).toBe(false);
  });
});
