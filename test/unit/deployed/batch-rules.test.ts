import { describe, expect, it } from 'vitest';
import { decideSqsBatch, decideStreamBatch, type FunctionOutcome, type StreamBatchInput } from '../../aws-wire/deployed/batch-rules.js';

const ok = (result: unknown): FunctionOutcome => ({ ok: true, result });
const thrown: FunctionOutcome = { ok: false, error: { errorType: 'Error', errorMessage: 'boom' } };
const ids = ['m1', 'm2', 'm3'];

describe('SQS batch: what the mapping deletes', () => {
  it.each([
    ['a function error deletes nothing', thrown, true, [], ids],
    ['success without partial responses deletes all', ok({ batchItemFailures: [{ itemIdentifier: 'm2' }] }), false, ids, []],
    ['an empty list is a complete success', ok({ batchItemFailures: [] }), true, ids, []],
    ['a null list is a complete success', ok({ batchItemFailures: null }), true, ids, []],
    ['a null response is a complete success', ok(null), true, ids, []],
    ['an empty response is a complete success', ok({}), true, ids, []],
    ['reported messages stay, the rest are deleted', ok({ batchItemFailures: [{ itemIdentifier: 'm2' }] }), true, ['m1', 'm3'], ['m2']],
    ['an empty itemIdentifier fails the whole batch', ok({ batchItemFailures: [{ itemIdentifier: '' }] }), true, [], ids],
    ['a null itemIdentifier fails the whole batch', ok({ batchItemFailures: [{ itemIdentifier: null }] }), true, [], ids],
    ['a bad key name fails the whole batch', ok({ batchItemFailures: [{ itemId: 'm1' }] }), true, [], ids],
    ['an identifier outside the batch fails the whole batch', ok({ batchItemFailures: [{ itemIdentifier: 'other' }] }), true, [], ids],
  ])('%s', (_rule, outcome, report, remove, keep) => {
    const decision = decideSqsBatch(ids, outcome, report);
    expect(decision.remove).toEqual(remove);
    expect(decision.keep).toEqual(keep);
    if (keep.length > 0) expect(decision.reason).toBeTruthy();
  });
});

const seqs = ['100', '200', '300', '400'];
const base: StreamBatchInput = {
  sequenceNumbers: seqs,
  outcome: ok({ batchItemFailures: [] }),
  reportBatchItemFailures: true,
  bisectOnError: true,
  retriesSoFar: 0,
  maxRetries: 5,
  oldestRecordAgeSeconds: 1,
  maxRecordAgeSeconds: 3600,
};

describe('stream batch: checkpoint, retry, bisect, discard', () => {
  it.each<[string, Partial<StreamBatchInput>, unknown]>([
    ['success checkpoints the whole batch', {}, { action: 'checkpoint', processed: 4 }],
    ['success without partial responses ignores the list', { reportBatchItemFailures: false, outcome: ok({ batchItemFailures: [{ itemIdentifier: '200' }] }) }, { action: 'checkpoint', processed: 4 }],
    [
      'a reported record: checkpoint before the lowest one, retry from it',
      { outcome: ok({ batchItemFailures: [{ itemIdentifier: '300' }, { itemIdentifier: '200' }] }) },
      { action: 'retry', processed: 1, batchLimit: 3, retries: 1 },
    ],
    ['a function error bisects the batch', { outcome: thrown }, { action: 'retry', processed: 0, batchLimit: 2, retries: 1 }],
    ['without bisect a function error retries the whole batch', { outcome: thrown, bisectOnError: false }, { action: 'retry', processed: 0, batchLimit: 4, retries: 1 }],
    ['a batch of one is retried as it is', { outcome: thrown, sequenceNumbers: ['100'] }, { action: 'retry', processed: 0, batchLimit: 1, retries: 1 }],
    [
      'an invalid identifier retries the whole batch',
      { outcome: ok({ batchItemFailures: [{ itemIdentifier: '999' }] }) },
      { action: 'retry', processed: 0, batchLimit: 4, retries: 1 },
    ],
    [
      'past MaximumRetryAttempts the rest goes to the on-failure destination',
      { outcome: thrown, retriesSoFar: 5 },
      { action: 'discard', processed: 0, discarded: 4, condition: 'RetryAttemptsExhausted' },
    ],
    [
      'records done before the failed one stay done when the rest is discarded',
      { outcome: ok({ batchItemFailures: [{ itemIdentifier: '300' }] }), retriesSoFar: 5 },
      { action: 'discard', processed: 2, discarded: 2, condition: 'RetryAttemptsExhausted' },
    ],
    ['past MaximumRecordAgeInSeconds the batch is discarded', { outcome: thrown, oldestRecordAgeSeconds: 3601 }, { action: 'discard', processed: 0, discarded: 4, condition: 'RecordAgeExceeded' }],
    ['-1 retries forever', { outcome: thrown, retriesSoFar: 10_000, maxRetries: -1 }, { action: 'retry', processed: 0, batchLimit: 2, retries: 10_001 }],
  ])('%s', (_rule, change, expected) => {
    expect(decideStreamBatch({ ...base, ...change })).toMatchObject(expected as object);
  });
});
