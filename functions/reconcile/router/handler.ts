import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { processStreamBatch } from './process-stream-batch.js';
import { routerWiring } from './wiring.js';

const deps = routerWiring();

/** DynamoDB Streams (objects table) → reconcile requests on the per-kind queues. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return processStreamBatch(event, deps);
}
