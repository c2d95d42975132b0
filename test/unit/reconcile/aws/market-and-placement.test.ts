/**
 * How an AWSMachine's instance is bought and placed (CAPA's getInstanceMarketOptionsRequest and
 * Placement): the pure rules, then a Spot machine end to end (its instance, its AWSMachine's
 * `interruptible`, and the label its Node gets from the Machine).
 */
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { isInterruptible, marketOptions, placementOptions } from '../../../../functions/reconcile/infrastructure/aws/machine/market-and-placement.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { TerminalError } from '../../../../shared/errors/index.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

describe('market options (getInstanceMarketOptionsRequest)', () => {
  it.for<[string, Record<string, unknown>, unknown, boolean]>([
    ['nothing said: on demand', {}, {}, false],
    ['marketType OnDemand', { marketType: 'OnDemand' }, {}, false],
    ['spotMarketOptions: Spot, no price cap', { spotMarketOptions: {} }, { spot: {} }, true],
    ['spotMarketOptions with a maximum price', { spotMarketOptions: { maxPrice: '0.05' } }, { spot: { maxPrice: '0.05' } }, true],
    ['marketType Spot alone: Spot (CAPA marks only spotMarketOptions interruptible)', { marketType: 'Spot' }, { spot: {} }, false],
  ])('%s', ([, spec, expected, interruptible]) => {
    expect(marketOptions(spec)).toEqual(expected);
    expect(isInterruptible(spec)).toBe(interruptible);
  });

  it.for<[string, Record<string, unknown>, string]>([
    ['Spot with a capacity reservation', { spotMarketOptions: {}, capacityReservationId: 'cr-1' }, 'capacityReservationID is incompatible with marketType spot'],
    ['Capacity Blocks with Spot options', { marketType: 'CapacityBlock', spotMarketOptions: {} }, "can't create spot capacity-blocks"],
    ['Capacity Blocks', { marketType: 'CapacityBlock', capacityReservationId: 'cr-1' }, 'capless does not support yet'],
  ])('%s: refused before a launch', ([, spec, message]) => {
    expect(() => marketOptions(spec)).toThrow(TerminalError);
    expect(() => marketOptions(spec)).toThrow(message);
  });
});

describe('placement', () => {
  it.for<[string, Record<string, unknown>, unknown]>([
    ['nothing said', {}, {}],
    ['dedicated tenancy', { tenancy: 'dedicated' }, { placement: { tenancy: 'dedicated' } }],
    ['a partition placement group', { placementGroupName: 'pg-1', placementGroupPartition: 3 }, { placement: { groupName: 'pg-1', partitionNumber: 3 } }],
  ])('%s', ([, spec, expected]) => {
    expect(placementOptions(spec)).toEqual(expected);
  });

  it('a partition without a group is refused', () => {
    expect(() => placementOptions({ placementGroupPartition: 2 })).toThrow('placementGroupPartition is set but placementGroupName is empty');
  });
});

describe('a Spot AWSMachine end to end', () => {
  it('launches a Spot instance in its placement group; the AWSMachine is interruptible and its Node says so', async () => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    const spec = { spotMarketOptions: { maxPrice: '0.04' }, placementGroupName: 'spread-1' };
    for (const object of [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)]) {
      await store.create(object.kind === 'AWSMachine' ? { ...object, spec: { ...object.spec, ...spec } } : object);
    }
    const nodes = new Ec2WorkloadNodes(cloud, store);
    const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: nodes };
    for (let pass = 0; pass < 3; pass++) expect((await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers })).errors).toEqual([]);
    const [instance] = [...cloud.forRegion('us-east-1').ec2.instances.values()];
    expect(instance).toMatchObject({ lifecycle: 'spot', placement: { groupName: 'spread-1' } });
    const awsMachine = await store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: NS, name: 'w-0' });
    expect(awsMachine?.status?.interruptible).toBe(true);
    const node = await nodes.findNodeByProviderID({ namespace: NS, name: 'c1' }, String(awsMachine?.spec?.providerID));
    expect(node?.labels?.['cluster.x-k8s.io/interruptible']).toBe('');
  });

  it('a Capacity Block request: InstanceReady=False saying why, nothing launched, not retried', async () => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    for (const object of [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)]) {
      await store.create(object.kind === 'AWSMachine' ? { ...object, spec: { ...object.spec, marketType: 'CapacityBlock', capacityReservationId: 'cr-0123' } } : object);
    }
    const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
    const stats = await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers });
    expect(stats.errors).toEqual([]);
    expect(cloud.forRegion('us-east-1').ec2.instances.size).toBe(0);
    const awsMachine = await store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: NS, name: 'w-0' });
    const conditions = Array.isArray(awsMachine?.status?.conditions) ? awsMachine.status.conditions : [];
    expect(conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'InstanceReady', status: 'False', reason: 'InstanceProvisionFailed', message: expect.stringContaining('CapacityBlock') })]));
  });
});
