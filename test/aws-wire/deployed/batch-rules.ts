/**
 * Lambda's documented rules for what an event source mapping does with a batch after the
 * function ran, as pure functions (the pollers apply them; unit tests pin them).
 *
 * SQS (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html): a function
 * error deletes nothing (every message comes back after its visibility timeout, and the queue's
 * redrive policy dead-letters it after maxReceiveCount receives); a success deletes the batch, or
 * with ReportBatchItemFailures every message but the reported ones.
 *
 * DynamoDB Streams (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html
 * and https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-eventsourcemapping.html#services-dynamodb-errors):
 * records of a shard are processed in order; a success checkpoints the batch, or with
 * ReportBatchItemFailures checkpoints up to the lowest reported sequence number and retries from
 * there; a function error retries the batch (halved first when BisectBatchOnFunctionError is on)
 * until MaximumRetryAttempts or MaximumRecordAgeInSeconds, then sends a description of the
 * records to the on-failure destination and moves on.
 *
 * For both: "Lambda treats a batch as a complete success if you return an empty batchItemFailures
 * list, a null list, an empty or null response; as a complete failure if you return an empty
 * string itemIdentifier, a null itemIdentifier, or an itemIdentifier with a bad key name." An
 * identifier that names no record of the batch is treated as a complete failure too.
 */

import { isRecord } from '../../../shared/contracts/json.js';

export type FunctionOutcome = { ok: true; result: unknown } | { ok: false; error: { errorType: string; errorMessage: string } };

export type ReportedFailures = { kind: 'none' } | { kind: 'some'; ids: string[] } | { kind: 'invalid'; reason: string };

/** Reads a partial batch response against the ids of the batch. */
export function reportedFailures(result: unknown, batchIds: readonly string[]): ReportedFailures {
  if (result === null || result === undefined) return { kind: 'none' };
  if (!isRecord(result)) return { kind: 'invalid', reason: 'the response is not an object' };
  const list = result.batchItemFailures;
  if (list === null || list === undefined) return { kind: 'none' };
  if (!Array.isArray(list)) return { kind: 'invalid', reason: 'batchItemFailures is not a list' };
  const ids: string[] = [];
  for (const item of list) {
    const id = isRecord(item) ? item.itemIdentifier : undefined;
    if (typeof id !== 'string' || id === '') return { kind: 'invalid', reason: `bad itemIdentifier in ${JSON.stringify(item)}` };
    if (!batchIds.includes(id)) return { kind: 'invalid', reason: `itemIdentifier ${id} is not in the batch` };
    ids.push(id);
  }
  return ids.length === 0 ? { kind: 'none' } : { kind: 'some', ids };
}

export interface SqsBatchDecision {
  /** Message ids to delete from the queue. */
  remove: string[];
  /** Message ids left to come back after the visibility timeout. */
  keep: string[];
  /** Why anything was kept. */
  reason?: string;
}

export function decideSqsBatch(messageIds: readonly string[], outcome: FunctionOutcome, reportBatchItemFailures: boolean): SqsBatchDecision {
  if (!outcome.ok) return { remove: [], keep: [...messageIds], reason: `function error ${outcome.error.errorType}: ${outcome.error.errorMessage}` };
  if (!reportBatchItemFailures) return { remove: [...messageIds], keep: [] };
  const failures = reportedFailures(outcome.result, messageIds);
  if (failures.kind === 'none') return { remove: [...messageIds], keep: [] };
  if (failures.kind === 'invalid') return { remove: [], keep: [...messageIds], reason: `invalid partial batch response: ${failures.reason}` };
  return {
    remove: messageIds.filter((id) => !failures.ids.includes(id)),
    keep: messageIds.filter((id) => failures.ids.includes(id)),
    reason: 'reported as failed by the function',
  };
}

export interface StreamBatchInput {
  /** Sequence numbers of the batch, in shard order. */
  sequenceNumbers: readonly string[];
  outcome: FunctionOutcome;
  reportBatchItemFailures: boolean;
  bisectOnError: boolean;
  /** Failed attempts on the head of the shard so far (0 on a first try). */
  retriesSoFar: number;
  /** -1: retry until the record expires. */
  maxRetries: number;
  /** Age of the oldest record in the batch, and the mapping's limit (-1: none). */
  oldestRecordAgeSeconds: number;
  maxRecordAgeSeconds: number;
}

export type StreamBatchDecision =
  /** The first `processed` records are done; continue after them. */
  | { action: 'checkpoint'; processed: number }
  /** The first `processed` records are done; retry from the next one with at most `batchLimit` records. */
  | { action: 'retry'; processed: number; batchLimit: number; retries: number; reason: string }
  /** The first `processed` records are done; the next `discarded` go to the on-failure destination. */
  | { action: 'discard'; processed: number; discarded: number; condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; reason: string };

export function decideStreamBatch(input: StreamBatchInput): StreamBatchDecision {
  const size = input.sequenceNumbers.length;
  let processed = 0;
  let reason: string;
  if (input.outcome.ok) {
    if (!input.reportBatchItemFailures) return { action: 'checkpoint', processed: size };
    const failures = reportedFailures(input.outcome.result, input.sequenceNumbers);
    if (failures.kind === 'none') return { action: 'checkpoint', processed: size };
    if (failures.kind === 'some') {
      // Lambda checkpoints before the lowest reported sequence number and retries from it.
      processed = Math.min(...failures.ids.map((id) => input.sequenceNumbers.indexOf(id)));
      reason = `function reported ${input.sequenceNumbers[processed]} as failed`;
    } else {
      reason = `invalid partial batch response: ${failures.reason}`;
    }
  } else {
    reason = `function error ${input.outcome.error.errorType}: ${input.outcome.error.errorMessage}`;
  }
  const retries = input.retriesSoFar + 1;
  const remaining = size - processed;
  if (input.maxRecordAgeSeconds >= 0 && input.oldestRecordAgeSeconds > input.maxRecordAgeSeconds) {
    return { action: 'discard', processed, discarded: remaining, condition: 'RecordAgeExceeded', reason };
  }
  if (input.maxRetries >= 0 && retries > input.maxRetries) {
    return { action: 'discard', processed, discarded: remaining, condition: 'RetryAttemptsExhausted', reason };
  }
  const bisect = !input.outcome.ok && input.bisectOnError && remaining > 1;
  return { action: 'retry', processed, batchLimit: bisect ? Math.ceil(remaining / 2) : remaining, retries, reason };
}
