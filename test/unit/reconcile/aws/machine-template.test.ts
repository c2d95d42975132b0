/**
 * AWSMachineTemplate's status for the cluster autoscaler's scale from zero, as CAPA's
 * awsmachinetemplate controller fills it: capacity from DescribeInstanceTypes in Kubernetes'
 * quantity text, nodeInfo from the AMI (named, or the default image of the Kubernetes version of
 * what clones the template), else the instance type's architecture alone. Bad input is a terminal
 * failure carrying EC2's message; throttling is thrown for the queue's retries; a complete status,
 * a template without an owning Cluster and a paused Cluster ask EC2 nothing.
 */

import { describe, expect, it } from 'vitest';
import { awsMachineTemplateReconciler } from '../../../../functions/reconcile/infrastructure/aws/machine-template/reconciler.js';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import type { InMemoryEc2 } from '../../../../shared/adapters/memory/ec2/in-memory-ec2.js';
import { type KubeObject, keyString, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { AWS_MACHINE_TEMPLATE_KIND } from '../../../../shared/contracts/providers/aws/aws-kinds.js';
import { CloudApiError, TerminalError } from '../../../../shared/errors/index.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, NS } from '../../../support/aws-fixtures.js';
import { FaultPlan, FaultyAwsCloud } from '../../../support/fault-injection.js';
import { testContext } from '../../../support/reconcile-context.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const CAPA_OWNER = '819546954734';
const TEMPLATE = 'workers';

interface Shape {
  instanceType?: string;
  amiId?: (ec2: InMemoryEc2) => string;
  /** Objects of the cluster that clone the template, with their Kubernetes versions. */
  cloners?: readonly ('MachineDeployment' | 'MachineSet' | 'KubeadmControlPlane')[];
  images?: (ec2: InMemoryEc2) => void;
  owned?: boolean;
  paused?: boolean;
  status?: Record<string, unknown>;
  clusterSpec?: Record<string, unknown>;
}

function cloner(kind: 'MachineDeployment' | 'MachineSet' | 'KubeadmControlPlane', version: string): KubeObject {
  const infrastructureRef = { apiGroup: INFRA, kind: 'AWSMachineTemplate', name: TEMPLATE };
  const labels = { 'cluster.x-k8s.io/cluster-name': 'c1' };
  if (kind === 'KubeadmControlPlane') {
    return {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind,
      metadata: { name: 'cp', namespace: NS, labels },
      spec: { version, replicas: 1, machineTemplate: { spec: { infrastructureRef } } },
    };
  }
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name: kind.toLowerCase(), namespace: NS, labels },
    spec: { clusterName: 'c1', template: { spec: { clusterName: 'c1', version, infrastructureRef, bootstrap: { dataSecretName: 'x' } } } },
  };
}

function ubuntuImage(ec2: InMemoryEc2, version: string, architecture: string): void {
  ec2.registerImage({ name: `capa-ami-ubuntu-24.04-v${version}-1767225600`, ownerId: CAPA_OWNER, creationDate: '2026-01-01T00:00:00.000Z', architecture });
}

async function reconcile(shape: Shape) {
  const plan = new FaultPlan();
  const cloud = new InMemoryAwsCloudFactory();
  const ec2 = cloud.forRegion('us-east-1').ec2;
  shape.images?.(ec2);
  const ctx = testContext({ providers: { [AWS_CLOUD_PORT]: new FaultyAwsCloud(cloud, plan) } });
  const [awsCluster, cluster] = awsClusterObjects('c1');
  if (!awsCluster || !cluster) throw new Error('fixtures');
  await ctx.store.create(awsCluster);
  const storedCluster = await ctx.store.create({ ...cluster, spec: { ...cluster.spec, ...shape.clusterSpec, ...(shape.paused ? { paused: true } : {}) } });
  for (const kind of shape.cloners ?? []) await ctx.store.create(cloner(kind, 'v1.32.0'));
  const machineSpec = { instanceType: shape.instanceType ?? 't3.large', ...(shape.amiId ? { ami: { id: shape.amiId(ec2) } } : {}) };
  const created = await ctx.store.create({
    apiVersion: `${INFRA}/v1beta2`,
    kind: 'AWSMachineTemplate',
    metadata: { name: TEMPLATE, namespace: NS, ...(shape.owned === false ? {} : { ownerReferences: [ownerReferenceTo(storedCluster, false)] }) },
    spec: { template: { spec: machineSpec } },
  });
  if (shape.status) await ctx.store.updateStatus({ ...created, status: shape.status });
  const key = { ...AWS_MACHINE_TEMPLATE_KIND, namespace: NS, name: TEMPLATE };
  let failure: unknown;
  try {
    await runReconcile(awsMachineTemplateReconciler, ctx, key);
  } catch (error) {
    failure = error;
  }
  const template = await ctx.store.get(key);
  return { status: template?.status ?? {}, failure, calls: plan.points, plan };
}

describe('AWSMachineTemplate capacity and nodeInfo (CAPA awsmachinetemplate controller)', () => {
  it.each<[string, Shape, Record<string, string>, Record<string, string>]>([
    ['t3.large with a Linux AMI', { amiId: (ec2) => ec2.registerImage({ name: 'mine', ownerId: '1', creationDate: '2026-01-01', architecture: 'x86_64' }) }, { cpu: '2', memory: '8Gi' }, { architecture: 'amd64', operatingSystem: 'linux' }],
    [
      'a Windows AMI (Platform)',
      { instanceType: 'm5.xlarge', amiId: (ec2) => ec2.registerImage({ name: 'win', ownerId: '1', creationDate: '2026-01-01', architecture: 'x86_64', platform: 'windows' }) },
      { cpu: '4', memory: '16Gi' },
      { architecture: 'amd64', operatingSystem: 'windows' },
    ],
    [
      'a Windows AMI (PlatformDetails only)',
      { amiId: (ec2) => ec2.registerImage({ name: 'sql', ownerId: '1', creationDate: '2026-01-01', architecture: 'x86_64', platformDetails: 'Windows with SQL Server Standard' }) },
      { cpu: '2', memory: '8Gi' },
      { architecture: 'amd64', operatingSystem: 'windows' },
    ],
    [
      'an arm64 type without an AMI, cloned by a MachineDeployment whose version has a default image',
      { instanceType: 't4g.medium', cloners: ['MachineDeployment'], images: (ec2) => ubuntuImage(ec2, '1.32.0', 'arm64') },
      { cpu: '2', memory: '4Gi' },
      { architecture: 'arm64', operatingSystem: 'linux' },
    ],
    [
      'cloned by a MachineSet',
      { cloners: ['MachineSet'], images: (ec2) => ubuntuImage(ec2, '1.32.0', 'x86_64') },
      { cpu: '2', memory: '8Gi' },
      { architecture: 'amd64', operatingSystem: 'linux' },
    ],
    [
      'cloned by a KubeadmControlPlane',
      { instanceType: 'm5.large', cloners: ['KubeadmControlPlane'], images: (ec2) => ubuntuImage(ec2, '1.32.0', 'x86_64') },
      { cpu: '2', memory: '8Gi' },
      { architecture: 'amd64', operatingSystem: 'linux' },
    ],
    ['no AMI and nothing clones it yet: the architecture alone', { instanceType: 'm6g.large' }, { cpu: '2', memory: '8Gi' }, { architecture: 'arm64' }],
    [
      'a default image only for the other architecture: the architecture alone',
      { cloners: ['MachineDeployment'], images: (ec2) => ubuntuImage(ec2, '1.32.0', 'arm64') },
      { cpu: '2', memory: '8Gi' },
      { architecture: 'amd64' },
    ],
    ['memory that is no whole number of GiB stays in MiB', { instanceType: 't3.nano' }, { cpu: '2', memory: '512Mi' }, { architecture: 'amd64' }],
    ['4 TiB of memory', { instanceType: 'x2iedn.32xlarge' }, { cpu: '128', memory: '4Ti' }, { architecture: 'amd64' }],
  ])('%s', async (_case, shape, capacity, nodeInfo) => {
    const { status, failure } = await reconcile(shape);
    expect(failure).toBeUndefined();
    expect(status.capacity).toEqual(capacity);
    expect(status.nodeInfo).toEqual(nodeInfo);
  });

  it.each<[string, Shape, string]>([
    ['an instance type EC2 does not offer', { instanceType: 'm9.huge' }, 'InvalidInstanceType'],
    ['an AMI that does not exist', { amiId: () => 'ami-00000000000000000' }, 'InvalidAMIID.NotFound'],
  ])('%s: a terminal failure with the reason, and no status', async (_case, shape, reason) => {
    const { status, failure } = await reconcile(shape);
    expect(failure).toBeInstanceOf(TerminalError);
    expect(failure instanceof TerminalError ? failure.reason : undefined).toBe(reason);
    expect(status.capacity).toBeUndefined();
  });

  it('throttling is thrown as it is, for the queue to retry with backoff', async () => {
    const plan = new FaultPlan();
    plan.failCalls('ec2.describeInstanceTypes', () => new CloudApiError('DescribeInstanceTypes', 'RequestLimitExceeded', 'Request limit exceeded.'), 1);
    const cloud = new InMemoryAwsCloudFactory();
    const ctx = testContext({ providers: { [AWS_CLOUD_PORT]: new FaultyAwsCloud(cloud, plan) } });
    const [awsCluster, cluster] = awsClusterObjects('c1');
    if (!awsCluster || !cluster) throw new Error('fixtures');
    await ctx.store.create(awsCluster);
    const owner = await ctx.store.create(cluster);
    await ctx.store.create({
      apiVersion: `${INFRA}/v1beta2`,
      kind: 'AWSMachineTemplate',
      metadata: { name: TEMPLATE, namespace: NS, ownerReferences: [ownerReferenceTo(owner, false)] },
      spec: { template: { spec: { instanceType: 't3.large' } } },
    });
    const key = { ...AWS_MACHINE_TEMPLATE_KIND, namespace: NS, name: TEMPLATE };
    await expect(runReconcile(awsMachineTemplateReconciler, ctx, key)).rejects.toMatchObject({ code: 'RequestLimitExceeded' });
    await runReconcile(awsMachineTemplateReconciler, ctx, key);
    expect((await ctx.store.get(key))?.status?.capacity).toEqual({ cpu: '2', memory: '8Gi' });
  });

  it.each<[string, Shape]>([
    ['a complete status (the spec is immutable)', { status: { capacity: { cpu: '9', memory: '1Gi' }, nodeInfo: { architecture: 'amd64', operatingSystem: 'linux' } } }],
    ['no owning Cluster yet', { owned: false }],
    ['a Cluster whose infrastructure is not an AWSCluster', { clusterSpec: { infrastructureRef: { apiGroup: INFRA, kind: 'DevCluster', name: 'c1' } } }],
    ['a paused Cluster', { paused: true }],
  ])('%s: EC2 is not asked and the capacity is left as it was', async (_case, shape) => {
    const { status, calls } = await reconcile(shape);
    expect(calls).toEqual([]);
    expect(status.capacity).toEqual(shape.status?.capacity);
  });

  it('a status with capacity but no operating system is completed', async () => {
    const { status, calls } = await reconcile({
      cloners: ['MachineDeployment'],
      images: (ec2) => ubuntuImage(ec2, '1.32.0', 'x86_64'),
      status: { capacity: { cpu: '2', memory: '8Gi' }, nodeInfo: { architecture: 'amd64' } },
    });
    expect(calls).toEqual(['ec2.describeInstanceTypes', 'ec2.describeImages']);
    expect(status.nodeInfo).toEqual({ architecture: 'amd64', operatingSystem: 'linux' });
  });
});

describe('what wakes an AWSMachineTemplate (CAPA watches the creation of what clones it)', () => {
  const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
  // Other kinds' watches of these changes look the store up; the template's reads the change alone.
  const emptyStore = new MemoryObjectStore();
  const stored = (object: KubeObject): StoredObject => ({
    ...object,
    metadata: { ...object.metadata, namespace: NS, uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  });
  const template = keyString({ ...AWS_MACHINE_TEMPLATE_KIND, namespace: NS, name: TEMPLATE });

  it.each<[string, 'INSERT' | 'MODIFY', 'MachineDeployment' | 'MachineSet' | 'KubeadmControlPlane', boolean]>([
    ['a new MachineDeployment', 'INSERT', 'MachineDeployment', true],
    ['a new MachineSet', 'INSERT', 'MachineSet', true],
    ['a new KubeadmControlPlane', 'INSERT', 'KubeadmControlPlane', true],
    ['a changed MachineDeployment', 'MODIFY', 'MachineDeployment', false],
    ['a changed KubeadmControlPlane', 'MODIFY', 'KubeadmControlPlane', false],
  ])('%s that clones it: %s', async (_case, type, kind, wakes) => {
    const before = stored(cloner(kind, 'v1.32.0'));
    const after = stored(cloner(kind, 'v1.33.0'));
    const change = type === 'INSERT' ? { type, newObject: after } : { type, oldObject: before, newObject: after };
    const keys = (await routeChange(change, registry, emptyStore)).map(keyString);
    expect(keys.includes(template)).toBe(wakes);
  });
});
