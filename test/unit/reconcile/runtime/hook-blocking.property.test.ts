/**
 * Property: no sequence of extension answers lets a blocking hook through. Whenever any handler
 * blocks (retryAfterSeconds > 0), fails, answers invalidly, or errors under failurePolicy Fail,
 * the aggregate is not Success, and a Blocked result never asks to retry sooner than the smallest
 * block requested.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateOutcomes, type CalledHandler, type HandlerOutcome } from '../../../../functions/reconcile/runtime/hook-client/outcome.js';

const outcome: fc.Arbitrary<HandlerOutcome> = fc.oneof(
  fc.record({ kind: fc.constant('success' as const), retryAfterSeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2147483647 })), message: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('failure' as const), message: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('callError' as const), message: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('invalid' as const), message: fc.string({ maxLength: 8 }) }),
);

const called: fc.Arbitrary<CalledHandler[]> = fc
  .array(fc.record({ outcome, failurePolicy: fc.constantFrom('Fail' as const, 'Ignore' as const) }), { maxLength: 8 })
  .map((list) => list.map((entry, i) => ({ ...entry, name: `h${i}.ext` })));

/** What a correct gate must conclude, computed independently of the fold. */
function mustHold(list: readonly CalledHandler[]): boolean {
  return list.some(
    ({ outcome: o, failurePolicy }) =>
      (o.kind === 'success' && o.retryAfterSeconds > 0) || o.kind === 'failure' || o.kind === 'invalid' || (o.kind === 'callError' && failurePolicy === 'Fail'),
  );
}

describe('a blocking hook cannot be skipped', () => {
  it('the aggregate is Success only when no handler holds', () => {
    fc.assert(
      fc.property(called, (list) => {
        const result = aggregateOutcomes(list);
        expect(result.status === 'Success').toBe(!mustHold(list));
      }),
      { numRuns: 2000 },
    );
  });

  it('a Blocked result retries after the smallest block, never sooner and never zero', () => {
    fc.assert(
      fc.property(called, (list) => {
        const result = aggregateOutcomes(list);
        if (result.status !== 'Blocked') return;
        const blocks = list.flatMap(({ outcome: o }) => (o.kind === 'success' && o.retryAfterSeconds > 0 ? [o.retryAfterSeconds] : []));
        expect(result.retryAfterSeconds).toBe(Math.min(...blocks));
        expect(result.retryAfterSeconds).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
