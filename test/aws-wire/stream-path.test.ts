import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { requestProcessor } from '../../functions/reconcile/engine/process-request.js';
import { ReconcilerRegistry } from '../../functions/reconcile/engine/registry.js';
import { processStreamBatch } from '../../functions/reconcile/router/process-stream-batch.js';
import type { ReconcileContext } from '../../functions/reconcile/engine/skeleton/types.js';
import { createObjectTable } from '../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { objectChangeFromStreamRecord } from '../../shared/adapters/aws/dynamodb/stream-record.js';
import { StreamPoller } from '../../shared/adapters/aws/dynamodb-streams/stream-poller.js';
import { processSqsBatch } from '../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { SqsEventSource } from '../../shared/adapters/aws/sqs/sqs-event-source.js';
import { SqsWorkQueue } from '../../shared/adapters/aws/sqs/sqs-work-queue.js';
import { DynamoWorkLeases } from '../../shared/adapters/aws/work-leases/dynamo-work-leases.js';
import { systemClock } from '../../shared/ports/clock.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { createWorkQueuePair, type LocalSqs, startLocalSqs } from '../support/local-sqs.js';
import { sleep } from '../support/offset-clock.js';
import { Probe, widget, widgetKey } from '../support/probe-reconciler.js';

const TABLE = 'stream-path';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

let sqs: LocalSqs;
let dynamo: DynamoDBClient;
let streams: DynamoDBStreamsClient;
let store: DynamoObjectStore;
let source: SqsEventSource;
let routing = true;
let router: Promise<void>;
let routed = 0;
const probe = new Probe();

beforeAll(async () => {
  const endpoint = inject('dynamodbEndpoint');
  dynamo = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  streams = new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials });
  await createObjectTable(dynamo, TABLE, { stream: true });
  store = new DynamoObjectStore({ client: dynamo, tableName: TABLE });

  sqs = await startLocalSqs();
  const { url, deadLetterUrl } = await createWorkQueuePair(sqs.client, 'widgets', {
    maxReceiveCount: 5,
    visibilityTimeoutSeconds: 30,
  });
  const queueUrls = { 'test.capless.io/Widget': url };
  const leases = new DynamoWorkLeases(dynamo, TABLE);
  const queue = new SqsWorkQueue({ sqs: sqs.client, queueUrls, deadLetterUrls: { 'test.capless.io/Widget': deadLetterUrl }, leases });
  const registry = new ReconcilerRegistry([probe.reconciler()]);
  const context: ReconcileContext = { store, queue, clock: systemClock, logger: silentLogger };

  // The router Lambda's event source: the table's stream, read as Lambda would.
  const poller = new StreamPoller({ client: streams, tableName: TABLE });
  const routerDeps = { registry, lookup: store, queue, decode: objectChangeFromStreamRecord };
  router = (async () => {
    while (routing) {
      const event = await poller.poll();
      routed += event.Records.length;
      const response = await processStreamBatch(event, routerDeps);
      if (response.batchItemFailures.length > 0) throw new Error('router reported a failed record');
      await sleep(100);
    }
  })();

  // The reconcile Lambda's event source: the kind's queue.
  const handler = requestProcessor({ registry, context: () => context });
  source = new SqsEventSource({
    sqs: sqs.client,
    queueUrl: url,
    waitTimeSeconds: 0,
    handle: (event) => processSqsBatch(event, { queue, leases, handler, leaseSeconds: 30 }),
  });
  source.start();
});

afterAll(async () => {
  routing = false;
  await router;
  await source?.stop();
  await sqs?.close();
  dynamo?.destroy();
  streams?.destroy();
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

/** Waits until the router has drained the stream (no new record for a while), then a little more for the queue. */
async function streamDrained(): Promise<void> {
  let last = -1;
  await eventually(
    async () => {
      const seen = routed;
      const stable = seen === last;
      last = seen;
      await sleep(400);
      return stable;
    },
    (stable) => stable,
  );
  await sleep(1000);
}

describe('the stream path: DynamoDB Local stream → router → SQS → reconcile', () => {
  it('reconciles a created object and writes its status; its own status write does not loop', async () => {
    await store.create(widget('a'));
    const reconciled = await eventually(
      () => store.get(widgetKey('a')),
      (o) => o?.status?.probed === true,
    );
    expect(reconciled?.status).toMatchObject({ probed: true, observedGeneration: 1 });
    expect(probe.runs('a')).toBe(1);

    // The status write is a MODIFY on the stream; the router must let it pass.
    await streamDrained();
    expect(probe.runs('a')).toBe(1);
  });

  it('reconciles again when the spec changes (generation bump)', async () => {
    const current = await store.get(widgetKey('a'));
    if (!current) throw new Error('widget a is gone');
    await store.update({ ...current, spec: { size: 2 } });
    const reconciled = await eventually(
      () => store.get(widgetKey('a')),
      (o) => o?.status?.observedGeneration === 2,
    );
    expect(reconciled?.metadata.generation).toBe(2);
    expect(probe.runs('a')).toBe(2);
  });
});
