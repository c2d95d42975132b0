import { describe, expect, it } from 'vitest';
import { celPredicate } from '../../shared/contracts/schemas/common/cel-rules.js';

/** The rule shapes capless evaluates (the CRDs' own rules), each on a value that holds and one that breaks it. */
describe('CEL rules of a known shape', () => {
  it.each([
    ['self.all(x, self.exists_one(y, x.name == y.name))', [{ name: 'a' }, { name: 'b' }], [{ name: 'a' }, { name: 'a' }]],
    // Whole entries compared as CEL does: maps whatever their key order, lists by position.
    [
      'self.all(x, self.exists_one(y, x == y))',
      [{ selector: { matchLabels: { a: '1', b: '2' } } }, { selector: { matchLabels: { a: '1' } } }, { clusterSelector: { matchLabels: { a: '1', b: '2' } } }],
      [{ selector: { matchLabels: { a: '1', b: '2' } } }, { selector: { matchLabels: { b: '2', a: '1' } } }],
    ],
    ['self.all(x, self.exists_one(y, x == y))', [{ values: ['a', 'b'] }, { values: ['b', 'a'] }], [{ values: ['a', 'b'] }, { values: ['a', 'b'] }]],
    ['[has(self.layout),has(self.diskLayout)].filter(x,x==true).size() == 1', { device: 'd', layout: true }, { device: 'd' }],
    ['[has(self.layout),has(self.diskLayout)].filter(x,x==true).size() == 1', { diskLayout: [] }, { layout: false, diskLayout: [] }],
    ["self.matches('^(Linux|LVM|[0-9A-Fa-f]{8})$')", 'LVM', 'ext4'],
    ["!(self in ['Ready','Available'])", 'Stuck', 'Ready'],
    ["self in ['none','amazon-pool']", 'none', 'other'],
    ["self.startsWith('cagw-')", 'cagw-1', 'igw-1'],
    ['!has(self.capacityReservationId) || !has(self.spotMarketOptions)', { capacityReservationId: 'cr-1' }, { capacityReservationId: 'cr-1', spotMarketOptions: {} }],
    [
      "!has(self.capacityReservationId) || !has(self.marketType) || self.marketType != 'Spot'",
      { capacityReservationId: 'cr-1', marketType: 'OnDemand' },
      { capacityReservationId: 'cr-1', marketType: 'Spot' },
    ],
  ])('%s holds for %j and not for %j', (rule, holds, breaks) => {
    const predicate = celPredicate(rule);
    expect(predicate?.(holds)).toBe(true);
    expect(predicate?.(breaks)).toBe(false);
  });

  it.each(['self.size() > 0', 'oldSelf == self', "has(self.a) ? self.a != '' : true"])('%s is not a shape capless evaluates', (rule) => {
    expect(celPredicate(rule)).toBeUndefined();
  });
});
