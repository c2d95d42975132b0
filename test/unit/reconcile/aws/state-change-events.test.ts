import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dispatchSqsBatch } from '../../../../functions/reconcile/dispatch/dispatch-batch.js';
import { processInvocation } from '../../../../shared/adapters/aws/lambda/invocation-consumer.js';
import { SqsWorkQueue } from '../../../../shared/adapters/aws/sqs/sqs-work-queue.js';
import { InMemoryReconcilerInvoker } from '../../../../shared/adapters/memory/reconciler-invoker/in-memory-reconciler-invoker.js';
import { awsMachinesOfStateChange } from '../../../../functions/reconcile/infrastructure/aws/machine/state-change-events.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { enqueueConcerned } from '../../../../shared/adapters/aws/sqs/sqs-batch-consumer.js';
import { type CloudEvent, parseCloudEventMessage } from '../../../../shared/contracts/cloud-event-message.js';
import type { ObjectKey } from '../../../../shared/contracts/object.js';
import { instanceTags } from '../../../../shared/contracts/providers/aws/aws-tags.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { silentLogger } from '../../../../shared/ports/logger.js';
import { testContext } from '../../../support/reconcile-context.js';

async function world() {
  const cloud = new InMemoryAwsCloudFactory();
  const { ec2 } = cloud.forRegion('eu-west-1');
  const vpc = await ec2.createVpc({ cidrBlock: '10.0.0.0/16', tags: {} });
  const subnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.0.0.0/24', availabilityZone: 'eu-west-1a', tags: {} });
  const launch = (tags: Record<string, string>) =>
    ec2.runInstance({ clientToken: Math.random().toString(36), imageId: 'ami-0123456789abcdef0', instanceType: 't3.micro', subnetId: subnet.id, securityGroupIds: [], userData: '', tags });
  const ours = await launch(instanceTags({ cluster: 'c1', awsMachine: 'c1-md-abc', namespace: 'team-a', machine: 'c1-md-xyz', controlPlane: false }));
  const foreign = await launch({ Name: 'someone-else' });
  return { ctx: testContext({ providers: { [AWS_CLOUD_PORT]: cloud } }), ours, foreign };
}

function stateChange(instanceId: string, detailType = 'EC2 Instance State-change Notification'): CloudEvent {
  const body = JSON.stringify({ v: 1, cloudEvent: { source: 'aws.ec2', detailType, region: 'eu-west-1', resources: [], detail: { 'instance-id': instanceId, state: 'stopped' } } });
  const event = parseCloudEventMessage(body);
  if (!event) throw new Error('unparsable');
  return event;
}

describe('EC2 state-change events', () => {
  it('map a capless instance to its AWSMachine (CAPA Name and MachineName tags)', async () => {
    const { ctx, ours } = await world();
    expect(await awsMachinesOfStateChange(ctx, stateChange(ours.id))).toEqual([{ group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: 'team-a', name: 'c1-md-abc' }]);
  });

  it.each([
    ['an instance capless did not launch', 'foreign'],
    ['an instance EC2 no longer knows', 'i-0000000000000dead'],
  ])('map %s to nothing', async (_case, which) => {
    const { ctx, foreign } = await world();
    expect(await awsMachinesOfStateChange(ctx, stateChange(which === 'foreign' ? foreign.id : which))).toEqual([]);
  });

  it('ignore other event types', async () => {
    const { ctx, ours } = await world();
    expect(await awsMachinesOfStateChange(ctx, stateChange(ours.id, 'EC2 Spot Instance Interruption Warning'))).toEqual([]);
  });

  it('become ordinary enqueues on the kind queue', async () => {
    const { ctx, ours } = await world();
    const enqueued: ObjectKey[] = [];
    const outcome = await enqueueConcerned(stateChange(ours.id), (event) => awsMachinesOfStateChange(ctx, event), { enqueueMany: async (keys) => void enqueued.push(...keys) }, silentLogger);
    expect(outcome).toBe('ok');
    expect(enqueued.map((k) => k.name)).toEqual(['c1-md-abc']);
  });

  it('are not work messages', () => {
    expect(parseCloudEventMessage(JSON.stringify({ v: 1, key: { group: 'g', kind: 'K', namespace: 'n', name: 'x' } }))).toBeUndefined();
  });

  it("reach the AWSMachine reconciler through the shared work queue's dispatcher, as the rule writes them, and become enqueues there", async () => {
    const { ctx, ours } = await world();
    const sent: unknown[] = [];
    const sqs = new SQSClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    sqs.send = async (command: { input?: unknown }) => {
      sent.push(command.input);
      return {};
    };
    const queue = new SqsWorkQueue({ sqs, sharedQueueUrl: 'https://sqs/work', leases: { markQueued: async () => 'send', acquire: async () => true, release: async () => ({ rerun: false }) } });
    const AWS_MACHINE = 'infrastructure.cluster.x-k8s.io/AWSMachine';
    const invoker = new InMemoryReconcilerInvoker({
      handlers: {
        [AWS_MACHINE]: async (invocation, requestId) => {
          await processInvocation(invocation, requestId, {
            queue,
            leases: { markQueued: async () => 'send', acquire: async () => true, release: async () => ({ rerun: false }) },
            leaseSeconds: 30,
            kind: { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine' },
            handler: async () => ({ type: 'done' }),
            cloudEvents: (event) => awsMachinesOfStateChange(ctx, event),
          });
        },
      },
    });
    // What lib/stacks/events/provider-event-rules.ts's input transformer writes on the shared queue.
    const body = JSON.stringify({ v: 1, kind: AWS_MACHINE, cloudEvent: { source: 'aws.ec2', detailType: 'EC2 Instance State-change Notification', region: 'eu-west-1', resources: [], detail: { 'instance-id': ours.id, state: 'stopped' } } });
    const record: SQSRecord = {
      messageId: 'e1',
      receiptHandle: 'rh',
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'events', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:work',
      awsRegion: 'eu-west-1',
    };
    const response = await dispatchSqsBatch({ Records: [record] }, { invoker, queue, kinds: new Set([AWS_MACHINE]), maxAttempts: 5, leaseSeconds: 30 });
    await invoker.idle();
    expect(response.batchItemFailures).toEqual([]);
    expect(invoker.failed).toBe(0);
    const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: 'team-a', name: 'c1-md-abc' };
    expect(sent).toEqual([{ QueueUrl: 'https://sqs/work', Entries: [{ Id: '0', MessageBody: JSON.stringify({ v: 1, key }) }] }]);
  });
});
