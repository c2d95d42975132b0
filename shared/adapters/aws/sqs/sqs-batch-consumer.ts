import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type GroupKind, groupKindString, keyString, type ObjectKey, sameGroupKind } from '../../../contracts/object.js';
import { type CloudEvent, parseCloudEventMessage } from '../../../contracts/cloud-event-message.js';
import { parseWorkMessage } from '../../../contracts/work-message.js';
import { type Logger, silentLogger } from '../../../ports/logger.js';
import type { WorkQueue } from '../../../ports/work-queue.js';
import { consumeWorkMessage, type WorkMessageDeps } from './consume-work-message.js';

export interface SqsConsumerDeps extends WorkMessageDeps {
  /** Maps a cloud event on this queue to the objects it concerns (they are enqueued); none: such messages fail. */
  cloudEvents?: (event: CloudEvent) => Promise<ObjectKey[]>;
  /**
   * The one kind this consumer reconciles (a per-kind function's RECONCILE_KIND). A request for
   * another kind means the wiring is wrong (a queue URL or a mapping points at the wrong queue):
   * it is reported as failed and left alone, so SQS's redrive moves it to this queue's dead-letter
   * queue and the alarms fire, instead of a function reconciling a kind it holds no grants for.
   */
  kind?: GroupKind;
}

/**
 * An SQS batch from a kind's queue (Lambda event source or the local poller): each message is
 * one try of one request. Backoff and dead-lettering are explicit (docs/adr/0002): a failed try
 * is deleted and re-sent delayed with its failure count; the last allowed failure goes to the
 * kind's dead-letter queue after ReconcileSucceeded=False is on the object. The queue's redrive
 * policy remains the safety net for tries that crash. Returns Lambda's partial batch response.
 */
export async function processSqsBatch(event: SQSEvent, deps: SqsConsumerDeps): Promise<SQSBatchResponse> {
  const results = await Promise.all(event.Records.map((record) => consumeOne(record, deps)));
  const batchItemFailures: SQSBatchItemFailure[] = [];
  event.Records.forEach((record, i) => {
    if (results[i] === 'fail') batchItemFailures.push({ itemIdentifier: record.messageId });
  });
  return { batchItemFailures };
}

async function consumeOne(record: SQSRecord, deps: SqsConsumerDeps): Promise<'ok' | 'fail'> {
  const logger = deps.logger ?? silentLogger;
  const message = parseWorkMessage(record.body);
  const cloudEvent = message ? undefined : parseCloudEventMessage(record.body);
  if (cloudEvent && deps.cloudEvents) return enqueueConcerned(cloudEvent, deps.cloudEvents, deps.queue, logger);
  if (!message) {
    logger.error('unreadable reconcile message; leaving it for the dead-letter queue', { messageId: record.messageId });
    return 'fail';
  }
  const key: ObjectKey = message.key;
  if (deps.kind && !sameGroupKind(key, deps.kind)) {
    logger.error('reconcile request for another kind: the queue wiring is wrong; leaving it for the dead-letter queue', {
      messageId: record.messageId,
      key: keyString(key),
      serves: groupKindString(deps.kind),
    });
    return 'fail';
  }
  try {
    const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
    return await consumeWorkMessage(
      message,
      {
        token: `${record.messageId}:${receives}`,
        failures: Math.max(message.failures ?? 0, receives - 1),
        withoutDeadLetterQueue: async () => {
          await deps.queue.releaseMessage(key, record.receiptHandle);
          return 'fail';
        },
      },
      deps,
    );
  } catch (error) {
    logger.error('reconcile message failed', {
      key: keyString(key),
      error: error instanceof Error ? error.message : String(error),
    });
    return 'fail';
  }
}

/** A cloud event becomes ordinary enqueues of the objects it concerns (coalesced like any change). */
export async function enqueueConcerned(
  event: CloudEvent,
  resolve: (event: CloudEvent) => Promise<ObjectKey[]>,
  queue: Pick<WorkQueue, 'enqueueMany'>,
  logger: Logger,
): Promise<'ok' | 'fail'> {
  try {
    const keys = await resolve(event);
    if (keys.length > 0) await queue.enqueueMany(keys);
    return 'ok';
  } catch (error) {
    logger.error('cloud event could not be mapped', { source: event.source, error: error instanceof Error ? error.message : String(error) });
    return 'fail';
  }
}
