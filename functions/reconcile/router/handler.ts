import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaTelemetry } from '../../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { processStreamBatch } from './process-stream-batch.js';
import { routerWiring } from './wiring.js';

const telemetry = lambdaTelemetry('capless-router');
const deps = routerWiring(process.env, telemetry.logger);

/** DynamoDB Streams (objects table) → reconcile requests on the per-kind queues. */
export const handler = telemetry.instrument(
  (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => processStreamBatch(event, deps),
  (result) => ({ StreamBatchItemFailures: result.batchItemFailures.length }),
);
