import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processSqsBatch } from '../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { reconcileWiring } from './wiring.js';

const telemetry = lambdaTelemetry(process.env.POWERTOOLS_SERVICE_NAME ?? 'capless-reconcile');
const deps = reconcileWiring(process.env, telemetry.logger);

/** One kind's queue (RECONCILE_KIND) → one reconcile per message; partial batch response. */
export const handler = telemetry.instrument(
  (event: SQSEvent): Promise<SQSBatchResponse> => processSqsBatch(event, deps),
  (result) => ({ ReconcileBatchItemFailures: result.batchItemFailures.length }),
);
