import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { requestProcessor } from '../../functions/reconcile/engine/process-request.js';
import type { ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import { startEmbeddedDynamoDb, type EmbeddedDynamoDb } from '../../local/embedded-dynamodb.js';
import { createObjectTable } from '../../shared/adapters/aws/dynamodb/create-object-table.js';
import { processSqsBatch } from '../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { SqsEventSource } from '../../shared/adapters/aws/sqs/sqs-event-source.js';
import { SqsWorkQueue } from '../../shared/adapters/aws/sqs/sqs-work-queue.js';
import { DynamoWorkLeases } from '../../shared/adapters/aws/work-leases/dynamo-work-leases.js';
import { parseWorkMessage } from '../../shared/contracts/work-message.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { ReconcileRequest } from '../../shared/ports/work-queue.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { describeWorkQueueConformance } from '../conformance/work-queue.conformance.js';
import { createWorkQueuePair, type LocalSqs, startLocalSqs } from '../support/local-sqs.js';
import { OffsetClock, sleep } from '../support/offset-clock.js';

const MAX_HOP_SECONDS = 1;
const WAIT_LIMIT_MS = 30_000;

let sqs: LocalSqs;
let dynamo: EmbeddedDynamoDb;
let dynamoClient: DynamoDBClient;
let harnesses = 0;

beforeAll(async () => {
  sqs = await startLocalSqs();
  dynamo = await startEmbeddedDynamoDb('', { persist: false });
  dynamoClient = new DynamoDBClient({
    ...dynamo.clientConfig(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(async () => {
  dynamoClient.destroy();
  await dynamo.close();
  await sqs.close();
});

describeWorkQueueConformance('SqsWorkQueue on local-aws-sqs with DynamoWorkLeases on dynalite', async ({ registry, policy }) => {
  const n = ++harnesses;
  const clock = new OffsetClock();
  const { url, deadLetterUrl } = await createWorkQueuePair(sqs.client, `widgets-${n}`, {
    maxReceiveCount: policy.maxAttempts,
    visibilityTimeoutSeconds: 30,
  });
  const tableName = `work-${n}`;
  await createObjectTable(dynamoClient, tableName);
  const leases = new DynamoWorkLeases(dynamoClient, tableName);
  const store = new MemoryObjectStore({ clock });
  const queue = new SqsWorkQueue({
    sqs: sqs.client,
    queueUrls: { 'test.capless.io/Widget': url },
    deadLetterUrls: { 'test.capless.io/Widget': deadLetterUrl },
    leases,
    clock,
    maxHopSeconds: MAX_HOP_SECONDS,
  });
  const context: ReconcileContext = { store, queue, clock, logger: silentLogger };
  const handler = requestProcessor({ registry, policy, context: () => context });
  const source = new SqsEventSource({
    sqs: sqs.client,
    queueUrl: url,
    waitTimeSeconds: 0,
    handle: (event) => processSqsBatch(event, { queue, leases, handler, leaseSeconds: 30, clock }),
  });

  const dead: ReconcileRequest[] = [];
  const quiet = async (): Promise<boolean> => {
    const attributes = await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    const visible = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? '0');
    const hidden = Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? '0');
    return visible === 0 && hidden === 0 && !source.isBusy();
  };
  const until = async (predicate: () => boolean | Promise<boolean>) => {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error('condition never held');
      await sleep(100);
    }
  };
  const settle = async () => {
    const quietTwice = async () => {
      if (!(await quiet())) return false;
      await sleep(150);
      return quiet();
    };
    await until(quietTwice);
  };
  return {
    queue,
    store,
    start: async () => source.start(),
    settle,
    elapse: async (seconds) => {
      clock.skip(seconds);
      await sleep(Math.min(seconds, MAX_HOP_SECONDS + 1) * 1000 + 300);
      await settle();
    },
    until,
    deadLetters: async () => {
      const received = await sqs.client.send(
        new ReceiveMessageCommand({ QueueUrl: deadLetterUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      const seen = new Set<string>();
      for (const message of received.Messages ?? []) {
        if (!message.MessageId || seen.has(message.MessageId)) continue;
        seen.add(message.MessageId);
        const body = parseWorkMessage(message.Body ?? '');
        if (body) dead.push(body.key);
        await sqs.client.send(new DeleteMessageCommand({ QueueUrl: deadLetterUrl, ReceiptHandle: message.ReceiptHandle }));
      }
      return [...dead];
    },
    close: () => source.stop(),
  };
});
