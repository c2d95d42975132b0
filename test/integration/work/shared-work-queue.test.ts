/**
 * ADR 0110's topology end to end in one process: the shared SQS work queue (local-aws-sqs),
 * work records on dynalite, the dispatcher reading the queue through an event source and invoking
 * the kind's reconciler asynchronously (the in-memory invoker, shaped like Lambda's Event
 * invocations, with the on-failure record sent back to the shared queue), and the reconciler's
 * invocation entry point. It meets the same work-queue conformance suite as every queue.
 */

import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchSqsBatch } from '../../../functions/reconcile/dispatch/dispatch-batch.js';
import { requestProcessor } from '../../../functions/reconcile/engine/process-request.js';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import type { ReconcileContext } from '../../../functions/reconcile/engine/skeleton/types.js';
import { resyncByCluster } from '../../../functions/reconcile/resync/resync-by-cluster.js';
import { startEmbeddedDynamoDb, type EmbeddedDynamoDb } from '../../../local/embedded-dynamodb.js';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { processInvocation } from '../../../shared/adapters/aws/lambda/invocation-consumer.js';
import { InMemoryReconcilerInvoker } from '../../../shared/adapters/memory/reconciler-invoker/in-memory-reconciler-invoker.js';
import { SqsEventSource } from '../../../shared/adapters/aws/sqs/sqs-event-source.js';
import { SqsWorkQueue } from '../../../shared/adapters/aws/sqs/sqs-work-queue.js';
import { DynamoWorkLeases } from '../../../shared/adapters/aws/work-leases/dynamo-work-leases.js';
import { LABEL_CLUSTER_NAME } from '../../../shared/contracts/object.js';
import { parseWorkMessage } from '../../../shared/contracts/work-message.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import type { ReconcileRequest } from '../../../shared/ports/work-queue.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { CONFORMANCE_POLICY, describeWorkQueueConformance, type HarnessSetup, type WorkQueueHarness } from '../../conformance/work-queue.conformance.js';
import { createWorkQueuePair, type LocalSqs, startLocalSqs } from '../../support/local-sqs.js';
import { OffsetClock, sleep } from '../../support/offset-clock.js';
import { Probe, widget, widgetKey } from '../../support/probe-reconciler.js';

const MAX_HOP_SECONDS = 1;
const LEASE_SECONDS = 30;
const WAIT_LIMIT_MS = 30_000;
const WIDGET = 'test.capless.io/Widget';

let sqs: LocalSqs;
let dynamo: EmbeddedDynamoDb;
let dynamoClient: DynamoDBClient;
let harnesses = 0;

beforeAll(async () => {
  sqs = await startLocalSqs();
  dynamo = await startEmbeddedDynamoDb('', { persist: false });
  dynamoClient = new DynamoDBClient({ ...dynamo.clientConfig(), region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  dynamoClient.destroy();
  await dynamo.close();
  await sqs.close();
});

interface SharedQueueHarness extends WorkQueueHarness {
  invoker: InMemoryReconcilerInvoker;
  /** Sends a raw body to the shared queue (what the resync, a rule or Lambda's destination sends). */
  sendRaw(body: unknown): Promise<void>;
  /** Message ids the dispatcher left on the queue. */
  refused: string[];
}

async function sharedQueueHarness({ registry, policy }: HarnessSetup): Promise<SharedQueueHarness> {
  const n = ++harnesses;
  const clock = new OffsetClock();
  // One shared queue for every kind; the dead-letter queue here is the Widget kind's own.
  const { url, deadLetterUrl } = await createWorkQueuePair(sqs.client, `shared-${n}`, { maxReceiveCount: policy.maxAttempts, visibilityTimeoutSeconds: 30 });
  const tableName = `shared-work-${n}`;
  await createObjectTable(dynamoClient, tableName);
  const leases = new DynamoWorkLeases(dynamoClient, tableName);
  const store = new MemoryObjectStore({ clock });
  const queue = new SqsWorkQueue({ sqs: sqs.client, sharedQueueUrl: url, deadLetterUrls: { [WIDGET]: deadLetterUrl }, leases, clock, maxHopSeconds: MAX_HOP_SECONDS });
  const context: ReconcileContext = { store, queue, clock, logger: silentLogger };
  const handler = requestProcessor({ registry, policy, context: () => context });
  const sendRaw = async (body: unknown) => {
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body) }));
  };
  const refused: string[] = [];
  const invoker = new InMemoryReconcilerInvoker({
    handlers: {
      [WIDGET]: async (invocation, requestId) => {
        await processInvocation(invocation, requestId, { queue, leases, handler, leaseSeconds: LEASE_SECONDS, clock, kind: { group: 'test.capless.io', kind: 'Widget' } });
      },
    },
    // Lambda's on-failure destination is the shared queue: the record names the condition and carries the payload.
    onFailure: (invocation) => sendRaw({ version: '1.0', requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 1 }, requestPayload: invocation }),
  });
  const source = new SqsEventSource({
    sqs: sqs.client,
    queueUrl: url,
    waitTimeSeconds: 0,
    handle: async (event) => {
      const response = await dispatchSqsBatch(event, { invoker, queue, kinds: new Set([WIDGET]), maxAttempts: policy.maxAttempts, leaseSeconds: LEASE_SECONDS, clock });
      refused.push(...response.batchItemFailures.map((f) => f.itemIdentifier));
      return response;
    },
  });

  const dead: ReconcileRequest[] = [];
  const quiet = async (): Promise<boolean> => {
    const attributes = await sqs.client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    const visible = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? '0');
    const hidden = Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? '0');
    return visible === 0 && hidden === 0 && !source.isBusy() && !invoker.isBusy();
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
    invoker,
    sendRaw,
    refused,
    start: async () => source.start(),
    settle,
    elapse: async (seconds) => {
      clock.skip(seconds);
      await sleep(Math.min(seconds, MAX_HOP_SECONDS + 1) * 1000 + 300);
      await settle();
    },
    until,
    deadLetters: async () => {
      const received = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: deadLetterUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }));
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
    close: async () => {
      await source.stop();
      await invoker.idle();
    },
  };
}

describeWorkQueueConformance('one shared SQS queue, the dispatcher and asynchronous reconciler invocations (ADR 0110)', sharedQueueHarness);

describe('the shared work queue beyond the conformance suite', () => {
  it('fans a resync out per cluster: one message per cluster, one invocation per batch, every object reconciled once', async () => {
    const probe = new Probe();
    const registry = new ReconcilerRegistry([probe.reconciler()]);
    const h = await sharedQueueHarness({ registry, policy: CONFORMANCE_POLICY });
    try {
      const names = ['a1', 'a2', 'a3', 'b1', 'b2'];
      for (const name of names) {
        const object = widget(name);
        await h.store.create({ ...object, metadata: { ...object.metadata, labels: { [LABEL_CLUSTER_NAME]: name.startsWith('a') ? 'alpha' : 'beta' } } });
      }
      const sent = await resyncByCluster(h.store, registry, async (messages) => {
        for (const message of messages) await h.sendRaw(message);
      });
      expect(sent).toEqual({ objects: 5, messages: 2 });
      await h.start();
      await h.settle();
      expect(names.map((name) => probe.runs(name))).toEqual([1, 1, 1, 1, 1]);
      expect(h.invoker.accepted).toBeLessThanOrEqual(2);
      expect(h.invoker.failed).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('sends the requests of a crashed invocation again after the lease, and dead-letters one that keeps crashing', async () => {
    const probe = new Probe();
    const registry = new ReconcilerRegistry([probe.reconciler()]);
    const h = await sharedQueueHarness({ registry, policy: CONFORMANCE_POLICY });
    try {
      await h.store.create(widget('crashing'));
      await h.start();
      // What Lambda puts on the destination after the reconciler's function crashed on this request twice already.
      const request = { v: 1, key: widgetKey('crashing'), failures: CONFORMANCE_POLICY.maxAttempts - 1 };
      await h.sendRaw({ version: '1.0', requestContext: { condition: 'RetriesExhausted' }, requestPayload: { v: 1, kind: WIDGET, messages: [request], cloudEvents: [] } });
      await h.until(async () => (await h.deadLetters()).length > 0);
      expect(await h.deadLetters()).toEqual([widgetKey('crashing')]);
      expect(probe.runs('crashing')).toBe(0);

      await h.store.create(widget('crashed-once'));
      await h.sendRaw({ version: '1.0', requestContext: { condition: 'RetriesExhausted' }, requestPayload: { v: 1, kind: WIDGET, messages: [{ v: 1, key: widgetKey('crashed-once') }], cloudEvents: [] } });
      await h.elapse(LEASE_SECONDS);
      expect(probe.runs('crashed-once')).toBe(1);
    } finally {
      await h.close();
    }
  });

  it.each([
    ['an unreadable body', 'not json'],
    ['a request for a kind without a reconciler', { v: 1, key: { group: 'example.com', kind: 'Gadget', namespace: 'default', name: 'g' } }],
  ])('leaves %s on the queue for its redrive, invoking nothing', async (_case, body) => {
    const h = await sharedQueueHarness({ registry: new ReconcilerRegistry([new Probe().reconciler()]), policy: CONFORMANCE_POLICY });
    try {
      await h.sendRaw(body);
      await h.start();
      await h.until(() => h.refused.length > 0);
      expect(h.invoker.accepted).toBe(0);
    } finally {
      await h.close();
    }
  });
});
