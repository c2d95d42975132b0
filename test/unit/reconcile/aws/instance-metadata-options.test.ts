/**
 * The instance metadata options an AWSMachine's instance is launched with: CAPA's defaults, or
 * what `spec.instanceMetadataOptions` asks for (IMDSv2 only with `httpTokens: required`), sent on
 * RunInstances so neither the account nor the AMI decides.
 */

import { describe, expect, it } from 'vitest';
import { instanceMetadataOptions } from '../../../../functions/reconcile/infrastructure/aws/machine/metadata-options.js';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

const DEFAULTS = { httpEndpoint: 'enabled', httpProtocolIpv6: 'disabled', httpPutResponseHopLimit: 1, httpTokens: 'optional', instanceMetadataTags: 'disabled' };

describe('instanceMetadataOptions (CAPA InstanceMetadataOptions.SetDefaults)', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['none set: CAPA defaults', {}, DEFAULTS],
    ['IMDSv2 only', { instanceMetadataOptions: { httpTokens: 'required' } }, { ...DEFAULTS, httpTokens: 'required' }],
    ['two hops for Pods behind a bridge', { instanceMetadataOptions: { httpPutResponseHopLimit: 2, httpTokens: 'required' } }, { ...DEFAULTS, httpPutResponseHopLimit: 2, httpTokens: 'required' }],
    [
      'endpoint off, IPv6 and tags on',
      { instanceMetadataOptions: { httpEndpoint: 'disabled', httpProtocolIpv6: 'enabled', instanceMetadataTags: 'enabled' } },
      { ...DEFAULTS, httpEndpoint: 'disabled', httpProtocolIpv6: 'enabled', instanceMetadataTags: 'enabled' },
    ],
  ])('%s', (_case, spec, expected) => {
    expect(instanceMetadataOptions(spec)).toEqual(expected);
  });
});

describe('an AWSMachine launches with its instance metadata options', () => {
  it.each<[string, Record<string, unknown> | undefined, string]>([
    ['CAPA defaults', undefined, 'optional'],
    ['httpTokens: required', { httpTokens: 'required' }, 'required'],
  ])('%s', async (_case, options, tokens) => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    const objects: KubeObject[] = [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)].map((o) =>
      o.kind === 'AWSMachine' && options ? { ...o, spec: { ...o.spec, instanceMetadataOptions: options } } : o,
    );
    for (const object of objects) await store.create(object);
    const stats = await converge(builtinProviderRegistry(), store, {
      clock,
      maxRounds: 60,
      providers: { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) },
    });
    expect(stats.errors).toEqual([]);
    const instances = [...cloud.forRegion('us-east-1').ec2.instances.values()];
    expect(instances).toHaveLength(1);
    expect(instances[0]?.metadataOptions).toEqual({ ...DEFAULTS, httpTokens: tokens });
  });
});

describe('a running instance whose metadata options were changed by hand gets the AWSMachine\'s back', () => {
  it('IMDSv1 re-enabled out of band is turned off again at the next reconcile', async () => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    const objects: KubeObject[] = [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)].map((o) =>
      o.kind === 'AWSMachine' ? { ...o, spec: { ...o.spec, instanceMetadataOptions: { httpTokens: 'required' } } } : o,
    );
    for (const object of objects) await store.create(object);
    const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
    expect((await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers })).errors).toEqual([]);
    const ec2 = cloud.forRegion('us-east-1').ec2;
    const [instance] = [...ec2.instances.values()];
    await ec2.modifyInstanceMetadataOptions(instance?.id ?? '', { httpEndpoint: 'enabled', httpProtocolIpv6: 'disabled', httpPutResponseHopLimit: 1, httpTokens: 'optional', instanceMetadataTags: 'disabled' });
    // A change of the AWSMachine (here a label) wakes it, as a resync or an EC2 event would.
    const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: 'default', name: 'w-0' };
    const current = await store.get(key);
    if (current) await store.update({ ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, nudge: '1' } } });
    expect((await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers })).errors).toEqual([]);
    expect([...ec2.instances.values()][0]?.metadataOptions).toEqual({ ...DEFAULTS, httpTokens: 'required' });
  });
});
