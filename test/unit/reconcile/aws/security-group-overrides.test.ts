/**
 * An AWSCluster's `network.securityGroupOverrides` (CAPA's ReconcileSecurityGroups): the groups the
 * user brought stand for their roles, untouched, on the user's VPC; with a network capless manages
 * they are refused.
 */

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { valueAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';

async function setup(objects: KubeObject[], cloud: InMemoryAwsCloudFactory) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  for (const object of objects) await store.create(object);
  const run = () => converge(builtinProviderRegistry(), store, { clock, maxRounds: 200, providers: { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) } });
  return { store, run };
}

async function broughtNetwork(cloud: InMemoryAwsCloudFactory) {
  const { ec2 } = cloud.forRegion('us-east-1');
  const vpc = await ec2.createVpc({ cidrBlock: '10.1.0.0/16', tags: { Name: 'mine' } });
  const privateSubnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.1.1.0/24', availabilityZone: 'us-east-1b', tags: { Name: 'mine-private' } });
  const publicSubnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.1.2.0/24', availabilityZone: 'us-east-1b', tags: { Name: 'mine-public' } });
  const controlPlane = await ec2.createSecurityGroup({ vpcId: vpc.id, name: 'corp-controlplane', description: 'managed by the network team', tags: { team: 'network' } });
  const node = await ec2.createSecurityGroup({ vpcId: vpc.id, name: 'corp-node', description: 'managed by the network team', tags: { team: 'network' } });
  await ec2.authorizeIngress(node.id, [{ description: 'ssh from the bastion', protocol: 'tcp', fromPort: 22, toPort: 22, cidrBlocks: ['10.9.0.0/16'] }]);
  const subnets = [{ id: privateSubnet.id, isPublic: false }, { id: publicSubnet.id, isPublic: true }];
  return { ec2, vpc, subnets, controlPlane, node };
}

describe('AWSCluster securityGroupOverrides (in-memory cloud)', () => {
  it('uses the groups the user brought for their roles, never changing or deleting them, and creates the others', async () => {
    const cloud = new InMemoryAwsCloudFactory();
    const { ec2, vpc, subnets, controlPlane, node } = await broughtNetwork(cloud);
    const before = JSON.stringify([ec2.securityGroups.get(controlPlane.id), ec2.securityGroups.get(node.id)]);
    const network = { vpc: { id: vpc.id }, subnets, securityGroupOverrides: { controlplane: controlPlane.id, node: node.id } };
    const { store, run } = await setup([...awsClusterObjects('c1', { network }), ...awsStandaloneMachine('w-0', 'c1', false)], cloud);
    expect((await run()).errors).toEqual([]);

    const awsCluster = await store.get({ group: INFRA, kind: 'AWSCluster', namespace: NS, name: 'c1' });
    expect(valueAt(awsCluster, 'status', 'networkStatus', 'securityGroups')).toMatchObject({
      controlplane: { id: controlPlane.id, name: 'corp-controlplane' },
      node: { id: node.id, name: 'corp-node' },
      'apiserver-lb': { name: 'c1-apiserver-lb' },
      lb: { name: 'c1-lb' },
    });
    expect([...ec2.securityGroups.values()].map((g) => g.name).sort()).toEqual(['c1-apiserver-lb', 'c1-lb', 'corp-controlplane', 'corp-node', 'default']);
    expect(JSON.stringify([ec2.securityGroups.get(controlPlane.id), ec2.securityGroups.get(node.id)])).toBe(before);
    const [instance] = [...ec2.instances.values()];
    expect(instance?.securityGroupIds).toContain(node.id);

    await store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'c1' });
    expect((await run()).errors).toEqual([]);
    expect([...ec2.securityGroups.values()].map((g) => g.name).sort()).toEqual(['corp-controlplane', 'corp-node', 'default']);
  });

  it('says an override that does not exist, and creates nothing for its role', async () => {
    const cloud = new InMemoryAwsCloudFactory();
    const { ec2, vpc, subnets } = await broughtNetwork(cloud);
    const network = { vpc: { id: vpc.id }, subnets, securityGroupOverrides: { node: 'sg-0123456789abcdef0' } };
    const { store, run } = await setup(awsClusterObjects('c1', { network }), cloud);
    await run();
    const awsCluster = await store.get({ group: INFRA, kind: 'AWSCluster', namespace: NS, name: 'c1' });
    expect(findCondition(conditionsOf(awsCluster?.status), 'ClusterSecurityGroupsReady')).toMatchObject({ status: 'False', reason: 'ClusterSecurityGroupReconciliationFailed', message: expect.stringContaining('sg-0123456789abcdef0') });
    expect([...ec2.securityGroups.values()].some((g) => g.name === 'c1-node')).toBe(false);
  });

  it('refuses overrides on a network capless manages, as CAPA does', async () => {
    const cloud = new InMemoryAwsCloudFactory();
    const { store, run } = await setup(awsClusterObjects('c1', { network: { securityGroupOverrides: { node: 'sg-0123456789abcdef0' } } }), cloud);
    await run();
    const awsCluster = await store.get({ group: INFRA, kind: 'AWSCluster', namespace: NS, name: 'c1' });
    expect(findCondition(conditionsOf(awsCluster?.status), 'ClusterSecurityGroupsReady')).toMatchObject({
      status: 'False',
      reason: 'ClusterSecurityGroupReconciliationFailed',
      message: 'security group overrides provided for managed vpc "c1"',
    });
    expect([...cloud.forRegion('us-east-1').ec2.securityGroups.values()].filter((g) => g.name.startsWith('c1-'))).toEqual([]);
  });
});
