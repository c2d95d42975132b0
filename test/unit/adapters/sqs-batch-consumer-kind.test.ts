import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { processSqsBatch } from '../../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { SqsWorkQueue } from '../../../shared/adapters/aws/sqs/sqs-work-queue.js';
import type { ObjectKey } from '../../../shared/contracts/object.js';
import type { ReconcileRequest } from '../../../shared/ports/work-queue.js';
import type { WorkLeases } from '../../../shared/work/work-leases.js';

/** Leases that always grant and never rerun: the consumer's own bookkeeping is not under test here. */
const grantingLeases: WorkLeases = {
  markQueued: async () => 'send',
  acquire: async () => true,
  release: async () => ({ rerun: false }),
};

/** An SQS queue whose client refuses to send: a 'done' outcome needs no SQS call. */
function queue(): SqsWorkQueue {
  const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  sqs.send = () => Promise.reject(new Error('no SQS call expected'));
  return new SqsWorkQueue({ sqs, leases: grantingLeases, queueUrls: {} });
}

function record(key: ObjectKey, messageId: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: JSON.stringify({ v: 1, key }),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:q',
    awsRegion: 'us-east-1',
  };
}

const machine: ObjectKey = { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: 'default', name: 'm1' };

describe('a per-kind reconcile consumer', () => {
  it.each([
    ['its own kind', { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine' }, true],
    ['no declared kind (the shared local poller)', undefined, true],
    ['another kind of the same group', { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster' }, false],
    ['the same kind name in another group', { group: 'example.com', kind: 'InMemoryMachine' }, false],
  ])('serving %s: reconciles an InMemoryMachine request only when it serves that kind', async (_case, serves, reconciled) => {
    const handled: ReconcileRequest[] = [];
    const event: SQSEvent = { Records: [record(machine, 'a')] };
    const response = await processSqsBatch(event, {
      queue: queue(),
      leases: grantingLeases,
      leaseSeconds: 30,
      ...(serves ? { kind: serves } : {}),
      handler: async (request) => {
        handled.push(request);
        return { type: 'done' };
      },
    });
    expect(handled).toEqual(reconciled ? [machine] : []);
    expect(response.batchItemFailures).toEqual(reconciled ? [] : [{ itemIdentifier: 'a' }]);
  });
});
