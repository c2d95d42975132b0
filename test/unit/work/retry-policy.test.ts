import { describe, expect, it } from 'vitest';
import {
  backoffSeconds,
  DEFAULT_RETRY_POLICY,
  isFinalFailure,
} from '../../../functions/reconcile/engine/work/retry-policy.js';
import { percentile } from '../../../shared/work/work-counters.js';

describe('Function: backoffSeconds', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 4],
    [4, 8],
    [8, 128],
    [9, 256],
    [10, 300],
    [40, 300],
  ])('after %i failure(s) waits %i s (1 s × 2^(n−1), capped at 300 s)', (failures, seconds) => {
    expect(backoffSeconds(DEFAULT_RETRY_POLICY, failures)).toBe(seconds);
  });

  it.each([
    [{ maxAttempts: 3, baseDelaySeconds: 5, maxDelaySeconds: 60 }, 1, 5],
    [{ maxAttempts: 3, baseDelaySeconds: 5, maxDelaySeconds: 60 }, 4, 40],
    [{ maxAttempts: 3, baseDelaySeconds: 5, maxDelaySeconds: 60 }, 5, 60],
    [{ maxAttempts: 3, baseDelaySeconds: 2, maxDelaySeconds: 10 }, 0, 2],
  ])('policy %o after %i failures waits %i s', (policy, failures, seconds) => {
    expect(backoffSeconds(policy, failures)).toBe(seconds);
  });
});

describe('Function: isFinalFailure', () => {
  it.each([
    [1, false],
    [4, false],
    [5, true],
    [6, true],
  ])('failure %i of the default 5 allowed is final: %s', (failures, final) => {
    expect(isFinalFailure(DEFAULT_RETRY_POLICY, failures)).toBe(final);
  });
});

describe('Function: percentile', () => {
  it.each([
    [[], 50, undefined],
    [[7], 99, 7],
    [[5, 1, 4, 2, 3], 50, 3],
    [[5, 1, 4, 2, 3], 100, 5],
    [Array.from({ length: 100 }, (_, i) => i + 1), 99, 99],
  ])('of %j at p%i is %s', (samples, p, expected) => {
    expect(percentile(samples, p)).toBe(expected);
  });
});
