/**
 * The AWS provider end to end on the converge harness with the in-memory cloud: a Cluster on an
 * AWSCluster with a managed network and an NLB, one control-plane and two worker Machines on
 * AWSMachines; Nodes appear when instances run. Then deletion removes everything capless created.
 */

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { stringAt, valueAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';

async function setup(objects: KubeObject[], cloud = new InMemoryAwsCloudFactory()) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  for (const object of objects) await store.create(object);
  const registry = builtinProviderRegistry();
  const run = () =>
    converge(registry, store, { clock, maxRounds: 200, providers: { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) } });
  return { store, run, region: cloud.forRegion('us-east-1') };
}

const machines = () => [...awsStandaloneMachine('cp-0', 'c1', true), ...awsStandaloneMachine('w-0', 'c1', false), ...awsStandaloneMachine('w-1', 'c1', false)];

describe('AWS provider scenario (in-memory cloud)', () => {
  it('builds the managed network, launches one instance per AWSMachine, registers the control plane with the NLB, and tears it all down', async () => {
    const { store, run, region } = await setup([...awsClusterObjects('c1'), ...machines()]);
    const created = await run();
    expect(created.errors).toEqual([]);
    expect(created.converged).toBe(true);

    const awsCluster = await store.get({ group: INFRA, kind: 'AWSCluster', namespace: NS, name: 'c1' });
    expect(awsCluster?.status).toMatchObject({ ready: true, failureDomains: { 'us-east-1a': { controlPlane: true }, 'us-east-1b': { controlPlane: true }, 'us-east-1c': { controlPlane: true } } });
    expect(valueAt(awsCluster, 'spec', 'controlPlaneEndpoint')).toEqual({ host: expect.stringContaining('default-c1-apiserver'), port: 6443 });
    expect(region.ec2.vpcs.size).toBe(1);
    expect(region.ec2.subnets.size).toBe(6);
    expect(region.ec2.natGateways.size).toBe(3);
    expect([...region.ec2.securityGroups.values()].map((g) => g.name).sort()).toEqual(['c1-apiserver-lb', 'c1-controlplane', 'c1-lb', 'c1-node', 'default']);

    const instances = [...region.ec2.instances.values()];
    expect(instances).toHaveLength(3);
    expect(instances.every((i) => i.state === 'running')).toBe(true);
    const awsMachines = (await store.list({ group: INFRA, kind: 'AWSMachine', namespace: NS })).items;
    for (const awsMachine of awsMachines) {
      const id = stringAt(awsMachine, 'spec', 'instanceID');
      const instance = instances.find((i) => i.id === id);
      expect(instance?.tags).toMatchObject({ Name: awsMachine.metadata.name, 'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned' });
      expect(stringAt(awsMachine, 'spec', 'providerID')).toBe(`aws:///${instance?.availabilityZone}/${id}`);
      expect(awsMachine.status).toMatchObject({ ready: true, instanceState: 'running' });
      // The user data is CAPA's MIME boot script that fetches this machine's secret chunks.
      const userData = Buffer.from(region.ec2.userDataOf(id ?? '') ?? '', 'base64').toString();
      expect(userData).toContain('Content-Type: text/cloud-boothook');
      expect(userData).toContain(`SECRET_PREFIX="${stringAt(awsMachine, 'spec', 'cloudInit', 'secretPrefix')}"`);
    }
    const controlPlane = awsMachines.find((m) => m.metadata.name === 'cp-0');
    const [targetGroup] = [...region.loadBalancers.targetGroups.values()];
    expect([...(targetGroup?.targets ?? [])]).toEqual([stringAt(controlPlane, 'spec', 'instanceID')]);
    // CAPA's NLB target-group attributes: no client-IP preservation (hairpin), 300 s draining.
    expect(targetGroup?.attributes).toMatchObject({
      'preserve_client_ip.enabled': 'false',
      'deregistration_delay.timeout_seconds': '300',
      'deregistration_delay.connection_termination.enabled': 'false',
    });

    const coreMachines = (await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS })).items;
    expect(coreMachines.map((m) => stringAt(m, 'status', 'phase'))).toEqual(['Running', 'Running', 'Running']);
    // Joined nodes: their bootstrap secrets are gone from Secrets Manager (CAPA).
    expect(region.secrets.secrets.size).toBe(0);

    await store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'c1' });
    const deleted = await run();
    expect(deleted.errors).toEqual([]);
    expect([...region.ec2.instances.values()].map((i) => i.state)).toEqual(['terminated', 'terminated', 'terminated']);
    expect(region.ec2.vpcs.size).toBe(0);
    expect(region.ec2.subnets.size).toBe(0);
    expect(region.ec2.internetGateways.size).toBe(0);
    expect(region.ec2.addresses.size).toBe(0);
    expect([...region.ec2.natGateways.values()].every((n) => n.state === 'deleted')).toBe(true);
    expect(region.ec2.securityGroups.size).toBe(0);
    expect(region.loadBalancers.loadBalancers.size).toBe(0);
    expect(region.loadBalancers.targetGroups.size).toBe(0);
    expect((await store.list({ group: INFRA, kind: 'AWSCluster' })).items).toEqual([]);
  });

  it('puts raw gzipped bootstrap data in the user data with cloudInit.insecureSkipSecretsManager', async () => {
    const [secret, awsMachine, machine] = awsStandaloneMachine('w-0', 'c1', false, '#cloud-config\nruncmd: [echo hi]\n');
    if (!secret || !awsMachine || !machine) throw new Error('fixture');
    const skipping = { ...awsMachine, spec: { ...awsMachine.spec, cloudInit: { insecureSkipSecretsManager: true } } };
    const { run, region } = await setup([...awsClusterObjects('c1'), secret, skipping, machine]);
    expect((await run()).errors).toEqual([]);
    const [instance] = [...region.ec2.instances.values()];
    expect(gunzipSync(Buffer.from(region.ec2.userDataOf(instance?.id ?? '') ?? '', 'base64')).toString()).toBe('#cloud-config\nruncmd: [echo hi]\n');
  });

  it('uses a network the user brought without creating, changing or deleting any of it', async () => {
    const cloud = new InMemoryAwsCloudFactory();
    const { ec2 } = cloud.forRegion('us-east-1');
    const vpc = await ec2.createVpc({ cidrBlock: '10.1.0.0/16', tags: { Name: 'mine' } });
    const privateSubnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.1.1.0/24', availabilityZone: 'us-east-1b', tags: { Name: 'mine-private' } });
    const publicSubnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.1.2.0/24', availabilityZone: 'us-east-1b', tags: { Name: 'mine-public' } });
    const before = JSON.stringify([[...ec2.vpcs.values()], [...ec2.subnets.values()], [...ec2.routeTables.values()]]);
    const network = { vpc: { id: vpc.id }, subnets: [{ id: privateSubnet.id, isPublic: false }, { id: publicSubnet.id, isPublic: true }] };
    const { store, run } = await setup([...awsClusterObjects('c1', { network }), ...awsStandaloneMachine('w-0', 'c1', false)], cloud);
    expect((await run()).errors).toEqual([]);
    const awsCluster = await store.get({ group: INFRA, kind: 'AWSCluster', namespace: NS, name: 'c1' });
    expect(awsCluster?.status).toMatchObject({ ready: true, failureDomains: { 'us-east-1b': { controlPlane: true } }, network: { vpcId: vpc.id, managed: false } });
    expect([...ec2.instances.values()].map((i) => i.subnetId)).toEqual([privateSubnet.id]);
    expect(ec2.internetGateways.size).toBe(0);
    expect(ec2.natGateways.size).toBe(0);

    await store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'c1' });
    expect((await run()).errors).toEqual([]);
    expect(JSON.stringify([[...ec2.vpcs.values()], [...ec2.subnets.values()], [...ec2.routeTables.values()]])).toBe(before);
    expect([...ec2.securityGroups.values()].map((g) => g.name)).toEqual(['default']);
  });
});
