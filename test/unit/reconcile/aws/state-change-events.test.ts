import { describe, expect, it } from 'vitest';
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
});
