import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaTelemetry } from '../../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { dispatchSqsBatch } from './dispatch-batch.js';
import { dispatchWiring } from './wiring.js';

const telemetry = lambdaTelemetry('capless-dispatch');
const deps = dispatchWiring(process.env, telemetry.logger);

/** The shared work queue → each kind's reconciler, invoked asynchronously (docs/adr/0110). */
export const handler = telemetry.instrument(
  (event: SQSEvent): Promise<SQSBatchResponse> => dispatchSqsBatch(event, deps),
  (result) => ({ DispatchBatchItemFailures: result.batchItemFailures.length }),
);
