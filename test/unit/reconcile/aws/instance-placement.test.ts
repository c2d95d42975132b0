/**
 * Where an AWSMachine's instance goes when its spec names things by EC2 filters: the subnet (CAPA's
 * findSubnet: EC2 is asked for the subnets matching them, which are then kept in the Machine's
 * failure domain, public when `publicIP` asks for it, and of the cluster's VPC first), and the
 * additional security groups (every group matching an entry's filters), and the core groups a
 * role's override replaces.
 */
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

interface Case {
  filters: { name: string; values: string[] }[];
  failureDomain?: string;
  publicIP?: boolean;
}

function objects(c: Case): KubeObject[] {
  return [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)].map((o) => {
    if (o.kind === 'AWSMachine') return { ...o, spec: { ...o.spec, subnet: { filters: c.filters }, ...(c.publicIP ? { publicIP: true } : {}) } };
    if (o.kind === 'Machine' && c.failureDomain) return { ...o, spec: { ...o.spec, failureDomain: c.failureDomain } };
    return o;
  });
}

async function launch(c: Case) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const cloud = new InMemoryAwsCloudFactory();
  for (const object of objects(c)) await store.create(object);
  const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
  for (let pass = 0; pass < 3; pass++) await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers });
  const ec2 = cloud.forRegion('us-east-1').ec2;
  const [instance] = [...ec2.instances.values()];
  const subnetName = instance ? (await ec2.describeSubnets({ ids: [instance.subnetId ?? ''] }))[0]?.tags.Name : undefined;
  const machine = await store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: NS, name: 'w-0' });
  return { instances: ec2.instances.size, subnetName, ready: findCondition(conditionsOf(machine?.status), 'InstanceReady') };
}

describe('spec.subnet.filters (CAPA findSubnet)', () => {
  it.for<[string, Case, string]>([
    ['a filter on the Name tag picks that subnet', { filters: [{ name: 'tag:Name', values: ['c1-subnet-private-us-east-1b'] }] }, 'c1-subnet-private-us-east-1b'],
    ['several match: the one in the Machine’s failure domain', { filters: [{ name: 'tag:Name', values: ['c1-subnet-private-*'] }], failureDomain: 'us-east-1c' }, 'c1-subnet-private-us-east-1c'],
    ['publicIP: a public one among those matching', { filters: [{ name: 'tag:Name', values: ['c1-subnet-public-us-east-1a'] }], publicIP: true }, 'c1-subnet-public-us-east-1a'],
  ])('%s', async ([, c, subnetName]) => {
    const outcome = await launch(c);
    expect(outcome.instances).toBe(1);
    expect(outcome.subnetName).toBe(subnetName);
  });

  it.for<[string, Case, string]>([
    ['nothing matches', { filters: [{ name: 'tag:Name', values: ['elsewhere'] }] }, 'no subnets available matching criteria state=pending,available tag:Name=elsewhere'],
    ['the one matching is in another failure domain', { filters: [{ name: 'tag:Name', values: ['c1-subnet-private-us-east-1a'] }], failureDomain: 'us-east-1b' }, 'does not match failure domain "us-east-1b"'],
    ['publicIP, but the one matching is private', { filters: [{ name: 'tag:Name', values: ['c1-subnet-private-us-east-1a'] }], publicIP: true }, 'is a private subnet'],
    ['a filter EC2 does not know', { filters: [{ name: 'no-such-filter', values: ['x'] }] }, 'InvalidParameterValue'],
  ])('%s: InstanceReady=False with why, no instance', async ([, c, message]) => {
    const outcome = await launch(c);
    expect(outcome.instances).toBe(0);
    expect(outcome.ready).toMatchObject({ status: 'False', reason: 'InstanceProvisionFailed' });
    expect(outcome.ready?.message).toContain(message);
  });
});

/** A converged AWSCluster `c1`, then a worker AWSMachine with `spec` added, converged in turn. */
async function clusterReady() {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const cloud = new InMemoryAwsCloudFactory();
  const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
  const converged = async () => {
    for (let pass = 0; pass < 3; pass++) await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers });
  };
  for (const object of awsClusterObjects('c1')) await store.create(object);
  await converged();
  const ec2 = cloud.forRegion('us-east-1').ec2;
  const launchWith = async (spec: Record<string, unknown>) => {
    for (const object of awsStandaloneMachine('w-0', 'c1', false)) await store.create(object.kind === 'AWSMachine' ? { ...object, spec: { ...object.spec, ...spec } } : object);
    await converged();
  };
  return { ec2, vpcId: [...ec2.vpcs.values()][0]?.id ?? '', launchWith };
}

describe('spec.additionalSecurityGroups by filters (CAPA GetAdditionalSecurityGroupsIDs)', () => {
  it('every group EC2 finds for an entry’s filters is attached at launch, beside the core groups and the ones named by id', async () => {
    const { ec2, vpcId, launchWith } = await clusterReady();
    const scrapers = await ec2.createSecurityGroup({ vpcId, name: 'scrapers', description: 'metrics', tags: { team: 'observability' } });
    const loggers = await ec2.createSecurityGroup({ vpcId, name: 'loggers', description: 'logs', tags: { team: 'observability' } });
    const named = await ec2.createSecurityGroup({ vpcId, name: 'bastion-access', description: 'ssh', tags: {} });
    const additionalSecurityGroups = [{ filters: [{ name: 'tag:team', values: ['observability'] }] }, { id: named.id }, { filters: [{ name: 'group-name', values: ['nobody'] }] }];
    await launchWith({ additionalSecurityGroups });
    const [instance] = [...ec2.instances.values()];
    expect(instance?.securityGroupIds).toEqual(expect.arrayContaining([scrapers.id, loggers.id, named.id]));
    expect(instance?.securityGroupIds).toHaveLength(5);
  });
});

describe('spec.securityGroupOverrides (CAPA GetCoreSecurityGroups)', () => {
  it('a role’s group named in the overrides is launched with instead of the cluster’s', async () => {
    const { ec2, vpcId, launchWith } = await clusterReady();
    const own = await ec2.createSecurityGroup({ vpcId, name: 'my-nodes', description: 'nodes, my way', tags: {} });
    await launchWith({ securityGroupOverrides: { node: own.id } });
    const clusterNodeGroup = [...ec2.securityGroups.values()].find((g) => g.name === 'c1-node')?.id;
    expect(clusterNodeGroup).toMatch(/^sg-/);
    const [instance] = [...ec2.instances.values()];
    expect(instance?.securityGroupIds).toContain(own.id);
    expect(instance?.securityGroupIds).not.toContain(clusterNodeGroup);
    expect(instance?.securityGroupIds).toHaveLength(2);
  });
});
