/**
 * Bad input and a misbehaving cloud become conditions carrying AWS's error code (and a requeue
 * with backoff), never a second instance: an unknown region, an instance type or AMI EC2 rejects,
 * a subnet of another VPC, a missing instance profile, throttling, and an instance EC2 does not
 * yet know right after it was launched.
 */

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import type { InMemoryEc2Options } from '../../../../shared/adapters/memory/ec2/in-memory-ec2.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { CloudApiError } from '../../../../shared/errors/index.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { FaultPlan, FaultyAwsCloud } from '../../../support/fault-injection.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';

type Options = InMemoryEc2Options & { regions?: readonly string[] };

interface Setup {
  cloud: InMemoryAwsCloudFactory;
  plan: FaultPlan;
}

/** Converges the objects `build` returns (it may first shape the cloud); records every InstanceReady message seen. */
async function run(build: (setup: Setup) => Promise<KubeObject[]>, options: Options = {}) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const cloud = new InMemoryAwsCloudFactory(options);
  const plan = new FaultPlan();
  for (const object of await build({ cloud, plan })) await store.create(object);
  const get = (kind: string, name: string) => store.get({ group: INFRA, kind, namespace: NS, name });
  const messages: string[] = [];
  // The harness stops at the first quiet round; a backed-off retry that writes nothing new looks
  // quiet, so drive it a few times (what later requeues and the periodic resync do).
  for (let pass = 0; pass < 4; pass++) {
    await converge(builtinProviderRegistry(), store, {
      clock,
      maxRounds: 60,
      providers: { [AWS_CLOUD_PORT]: new FaultyAwsCloud(cloud, plan), [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) },
      afterRound: async () => {
        const message = findCondition(conditionsOf((await get('AWSMachine', 'w-0'))?.status), 'InstanceReady')?.message;
        if (message) messages.push(message);
      },
    });
  }
  const instances = () => [...cloud.forRegion('us-east-1').ec2.instances.values()];
  return { get, instances, messages };
}

function withMachineSpec(objects: KubeObject[], spec: Record<string, unknown>): KubeObject[] {
  return objects.map((o) => (o.kind === 'AWSMachine' ? { ...o, spec: { ...o.spec, ...spec } } : o));
}

const machine = () => awsStandaloneMachine('w-0', 'c1', false);

async function foreignSubnet(cloud: InMemoryAwsCloudFactory): Promise<string> {
  const { ec2 } = cloud.forRegion('us-east-1');
  const other = await ec2.createVpc({ cidrBlock: '172.16.0.0/16', tags: { Name: 'someone-else' } });
  return (await ec2.createSubnet({ vpcId: other.id, cidrBlock: '172.16.0.0/24', availabilityZone: 'us-east-1a', tags: {} })).id;
}

describe('AWS provider: bad input and cloud errors become conditions with the AWS error code', () => {
  it.each([
    ['an instance type EC2 does not offer', async () => withMachineSpec(machine(), { instanceType: 'x9.colossal' }), { instanceTypes: ['t3.large'] }, 'InvalidParameterValue'],
    ['an AMI EC2 rejects', async () => withMachineSpec(machine(), { ami: { id: 'not-an-ami' } }), {}, 'InvalidAMIID.Malformed'],
    ['a missing instance profile', async () => machine(), { instanceProfiles: ['control-plane.cluster-api-provider-aws.sigs.k8s.io'] }, 'InvalidParameterValue'],
    ['a subnet of another VPC', async (s: Setup) => withMachineSpec(machine(), { subnet: { id: await foreignSubnet(s.cloud) } }), {}, 'InvalidParameter'],
  ] as const)('%s: InstanceReady=False, InstanceProvisionFailed with the code, no instance', async (_case, build, options, code) => {
    const { get, instances } = await run(async (s) => [...awsClusterObjects('c1'), ...(await build(s))], options);
    const ready = findCondition(conditionsOf((await get('AWSMachine', 'w-0'))?.status), 'InstanceReady');
    expect(ready).toMatchObject({ status: 'False', reason: 'InstanceProvisionFailed' });
    expect(ready?.message).toContain(code);
    expect(instances()).toEqual([]);
  });

  it('a subnet of another VPC in a bring-your-own network: SubnetsReady=False, nothing created', async () => {
    const { get, instances } = await run(async ({ cloud }) => {
      const mine = await cloud.forRegion('us-east-1').ec2.createVpc({ cidrBlock: '10.1.0.0/16', tags: {} });
      return [...awsClusterObjects('c1', { network: { vpc: { id: mine.id }, subnets: [{ id: await foreignSubnet(cloud) }] } }), ...machine()];
    });
    const subnets = findCondition(conditionsOf((await get('AWSCluster', 'c1'))?.status), 'SubnetsReady');
    expect(subnets).toMatchObject({ status: 'False', reason: 'SubnetsReconciliationFailed' });
    expect(subnets?.message).toContain('InvalidSubnet.VpcMismatch');
    expect(instances()).toEqual([]);
  });

  it('an unknown region: VpcReady=False with the resolver error, the cluster never ready', async () => {
    const { get } = await run(async () => [...awsClusterObjects('c1', { region: 'us-nowhere-1' }), ...machine()], { regions: ['us-east-1'] });
    const awsCluster = await get('AWSCluster', 'c1');
    const vpc = findCondition(conditionsOf(awsCluster?.status), 'VpcReady');
    expect(vpc).toMatchObject({ status: 'False', reason: 'VpcReconciliationFailed' });
    expect(vpc?.message).toContain('ENOTFOUND');
    expect(awsCluster?.status?.ready).toBe(false);
  });

  it('throttling of DescribeInstances: the code is reported, then one instance and no second launch', async () => {
    const { get, instances, messages } = await run(async ({ plan }) => {
      plan.failCalls('ec2.describeInstances', () => new CloudApiError('DescribeInstances', 'RequestLimitExceeded', 'Request limit exceeded.'), 4);
      return [...awsClusterObjects('c1'), ...machine()];
    });
    expect(messages.some((m) => m.includes('RequestLimitExceeded'))).toBe(true);
    expect(instances()).toHaveLength(1);
    expect((await get('AWSMachine', 'w-0'))?.status).toMatchObject({ ready: true });
  });

  it('InvalidInstanceID.NotFound right after the launch: reported, waited out, still one instance', async () => {
    const { get, instances, messages } = await run(async () => [...awsClusterObjects('c1'), ...machine()], { describeLagCalls: 2, honourClientToken: false });
    expect(messages.some((m) => m.includes('InvalidInstanceID.NotFound'))).toBe(true);
    expect(instances()).toHaveLength(1);
    expect((await get('AWSMachine', 'w-0'))?.status).toMatchObject({ ready: true, instanceState: 'running' });
  });
});
