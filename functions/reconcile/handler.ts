import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processSqsBatch } from '../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { reconcileWiring } from './wiring.js';

const deps = reconcileWiring();

/** One kind's queue (RECONCILE_KIND) → one reconcile per message; partial batch response. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  return processSqsBatch(event, deps);
}
