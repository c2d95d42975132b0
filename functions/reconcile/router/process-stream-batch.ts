import type { DynamoDBBatchItemFailure, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import type { ObjectChange } from '../../../shared/ports/object-store.js';
import type { WatchLog } from '../../../shared/ports/watch-log.js';
import type { WorkQueue } from '../../../shared/ports/work-queue.js';
import { watchLogRecordFor } from '../../../shared/watch/watch-log-record.js';
import type { ReconcilerRegistry } from '../engine/registry.js';
import { batchLookup } from './batch-lookup.js';
import { type ReferrerLookup, routeChange } from './route-change.js';

export interface StreamBatchDeps {
  registry: ReconcilerRegistry;
  lookup: ReferrerLookup;
  queue: WorkQueue;
  /** DynamoDB Streams record → ObjectChange; undefined for items that are not objects. */
  decode: (record: DynamoDBRecord) => ObjectChange | undefined;
  logger?: Logger;
  /** Where watches are served from on AWS (ADR 0080); each change is recorded there once routed. */
  watchLog?: WatchLog;
  now?: () => Date;
}

/**
 * A DynamoDB Streams batch → reconcile requests on the queues. Records are handled in order;
 * at the first that fails, the rest are left for Lambda's retry, which resumes from the
 * reported sequence number (partial batch response for streams). Non-object items (work
 * records, owner edges) decode to nothing and are skipped. Each routed change is then recorded in
 * the watch log, when there is one. The batch's changes share their lookups (batchLookup): a
 * cluster's many writes in one batch look for its watchers once.
 */
export async function processStreamBatch(event: DynamoDBStreamEvent, deps: StreamBatchDeps): Promise<DynamoDBBatchResponse> {
  const logger = deps.logger ?? silentLogger;
  const lookup = batchLookup(deps.lookup);
  for (const record of event.Records) {
    try {
      const change = deps.decode(record);
      if (!change) continue;
      const requests = await routeChange(change, deps.registry, lookup);
      if (requests.length > 0) await deps.queue.enqueueMany(requests);
      // Last, so a retried record is recorded again only when recording it failed (a removal gets a fresh version each time).
      const logged = deps.watchLog ? watchLogRecordFor(change, deps.now?.() ?? new Date()) : undefined;
      if (logged) await deps.watchLog?.append([logged]);
    } catch (error) {
      const failure: DynamoDBBatchItemFailure = { itemIdentifier: record.dynamodb?.SequenceNumber ?? '' };
      logger.error('routing a stream record failed', {
        sequenceNumber: failure.itemIdentifier,
        error: error instanceof Error ? error.message : String(error),
      });
      return { batchItemFailures: [failure] };
    }
  }
  return { batchItemFailures: [] };
}
