/** How the answers of every handler of a hook fold into one result (retryAfterSeconds, failurePolicy). */

import { describe, expect, it } from 'vitest';
import { aggregateOutcomes, type CalledHandler, type HandlerOutcome, lowestNonZero } from '../../../../functions/reconcile/runtime/hook-client/outcome.js';

const ok = (retryAfterSeconds = 0, message = ''): HandlerOutcome => ({ kind: 'success', retryAfterSeconds, message });
const failure = (message = 'no'): HandlerOutcome => ({ kind: 'failure', message });
const callError = (message = 'ECONNREFUSED'): HandlerOutcome => ({ kind: 'callError', message });
const invalid = (message = 'status unknown'): HandlerOutcome => ({ kind: 'invalid', message });
const h = (name: string, outcome: HandlerOutcome, failurePolicy: 'Fail' | 'Ignore' = 'Fail'): CalledHandler => ({ name, outcome, failurePolicy });

describe('retryAfterSeconds aggregation', () => {
  it.each<[string, number[], 'Success' | 'Blocked', number | undefined]>([
    ['no handler registered passes', [], 'Success', undefined],
    ['all zero passes', [0, 0, 0], 'Success', undefined],
    ['one blocking blocks', [0, 30, 0], 'Blocked', 30],
    ['the smallest non-zero wins', [30, 5, 60], 'Blocked', 5],
    ['zero never wins over a non-zero', [0, 7], 'Blocked', 7],
    ['a single handler', [12], 'Blocked', 12],
  ])('%s', (_name, retries, status, retryAfterSeconds) => {
    const result = aggregateOutcomes(retries.map((r, i) => h(`h${i}.ext`, ok(r))));
    expect(result.status).toBe(status);
    expect(result.retryAfterSeconds).toBe(retryAfterSeconds);
    expect(result.handlers).toHaveLength(retries.length);
  });

  it.each([
    [0, 0, 0],
    [0, 5, 5],
    [5, 0, 5],
    [3, 5, 3],
    [9, 2, 2],
  ])('lowestNonZero(%i, %i) = %i', (a, b, expected) => {
    expect(lowestNonZero(a, b)).toBe(expected);
  });

  it('joins non-empty messages with ", " as Cluster API does', () => {
    expect(aggregateOutcomes([h('a.x', ok(0, 'first')), h('b.x', ok(0)), h('c.x', ok(10, 'third'))]).message).toBe('first, third');
  });
});

describe('failurePolicy', () => {
  it.each<[string, CalledHandler[], 'Success' | 'Blocked' | 'Failure', RegExp | undefined]>([
    ['Ignore masks a transport error', [h('a.x', callError(), 'Ignore')], 'Success', undefined],
    ['Ignore masks a transport error but another handler still blocks', [h('a.x', callError(), 'Ignore'), h('b.x', ok(5))], 'Blocked', undefined],
    ['Fail turns a transport error into Failure', [h('a.x', callError('timed out after 1000 ms'))], 'Failure', /a\.x.*timed out/],
    ['Failure is never masked by Ignore', [h('a.x', failure('denied'), 'Ignore')], 'Failure', /a\.x.*answered Failure: denied/],
    ['an invalid response is never masked by Ignore', [h('a.x', invalid(), 'Ignore')], 'Failure', /invalid response/],
    ['Failure after a block is still Failure', [h('a.x', ok(30)), h('b.x', failure())], 'Failure', /b\.x/],
  ])('%s', (_name, called, status, message) => {
    const result = aggregateOutcomes(called);
    expect(result.status).toBe(status);
    if (message) expect(result.message).toMatch(message);
  });

  it('stops calling at the first failure', () => {
    const result = aggregateOutcomes([h('a.x', ok()), h('b.x', failure()), h('c.x', ok())]);
    expect(result.handlers).toEqual(['a.x', 'b.x']);
  });
});
