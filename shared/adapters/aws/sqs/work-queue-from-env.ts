import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DEFAULT_TABLE_NAME } from '../dynamodb/table-design.js';
import { DynamoWorkLeases } from '../work-leases/dynamo-work-leases.js';
import { parseQueueUrls } from './queue-urls.js';
import { SqsWorkQueue } from './sqs-work-queue.js';

/** Environment variables the work queue reads in a Lambda function. */
export const WORK_ENV = {
  tableName: 'TABLE_NAME',
  /** JSON `{"<group>/<Kind>": "<queue url>"}`: one queue per kind (ADR 0003). */
  queueUrls: 'QUEUE_URLS',
  /** The shared work queue every kind's requests go to (ADR 0110); QUEUE_URLS is then not read. */
  workQueueUrl: 'WORK_QUEUE_URL',
  /** JSON `{"<group>/<Kind>": "<dead-letter queue url>"}`; optional (then SQS redrive dead-letters). */
  deadLetterUrls: 'DEAD_LETTER_QUEUE_URLS',
  /** Seconds a run holds its object: at least the function timeout, at most the visibility timeout. Default 120. */
  leaseSeconds: 'LEASE_SECONDS',
} as const;

export interface AwsWork {
  queue: SqsWorkQueue;
  leases: DynamoWorkLeases;
  leaseSeconds: number;
}

/**
 * The SQS work queue of a Lambda function, clients created once per container. Work records
 * live in the objects table (TABLE_NAME) under `work#`. AWS_ENDPOINT_URL_SQS /
 * AWS_ENDPOINT_URL_DYNAMODB (or AWS_ENDPOINT_URL) point it at emulators.
 */
export function workQueueFromEnv(env: NodeJS.ProcessEnv = process.env): AwsWork {
  const dynamoEndpoint = env.AWS_ENDPOINT_URL_DYNAMODB ?? env.AWS_ENDPOINT_URL;
  const sqsEndpoint = env.AWS_ENDPOINT_URL_SQS ?? env.AWS_ENDPOINT_URL;
  const dynamo = new DynamoDBClient(dynamoEndpoint ? { endpoint: dynamoEndpoint } : {});
  const sqs = new SQSClient(sqsEndpoint ? { endpoint: sqsEndpoint } : {});
  const leases = new DynamoWorkLeases(dynamo, env[WORK_ENV.tableName] ?? DEFAULT_TABLE_NAME);
  const deadLetterJson = env[WORK_ENV.deadLetterUrls];
  const sharedQueueUrl = env[WORK_ENV.workQueueUrl];
  const queue = new SqsWorkQueue({
    sqs,
    leases,
    ...(sharedQueueUrl ? { sharedQueueUrl } : { queueUrls: parseQueueUrls(env[WORK_ENV.queueUrls]) }),
    ...(deadLetterJson ? { deadLetterUrls: parseQueueUrls(deadLetterJson) } : {}),
  });
  return { queue, leases, leaseSeconds: leaseSecondsFrom(env) };
}

/** LEASE_SECONDS, or its default of 120. */
export function leaseSecondsFrom(env: NodeJS.ProcessEnv): number {
  const leaseSeconds = Number(env[WORK_ENV.leaseSeconds] ?? '120');
  return Number.isFinite(leaseSeconds) && leaseSeconds > 0 ? leaseSeconds : 120;
}
