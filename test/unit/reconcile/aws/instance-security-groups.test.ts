/**
 * A running AWSMachine's network interfaces follow its security groups (CAPA's
 * ensureSecurityGroups): `spec.additionalSecurityGroups` changed after launch is attached or
 * detached, the role's core groups are always there, and what was applied last is kept in CAPA's
 * annotation.
 */
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { SECURITY_GROUPS_LAST_APPLIED_ANNOTATION, securityGroupsChanged } from '../../../../functions/reconcile/infrastructure/aws/machine/security-groups-phase.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

describe('securityGroupsChanged (CAPA)', () => {
  it.for([
    ['as launched: nothing to do', [], ['sg-node', 'sg-lb'], [], [['sg-lb', 'sg-node']], false, ['sg-lb', 'sg-node']],
    ['an additional group is added', [], ['sg-node'], ['sg-extra'], [['sg-node']], true, ['sg-extra', 'sg-node']],
    ['a group dropped since the last apply is removed', ['sg-extra'], ['sg-node'], [], [['sg-extra', 'sg-node']], true, ['sg-node']],
    ['a core group is put back even if it was applied as additional and dropped', ['sg-node'], ['sg-node'], [], [['sg-other']], true, ['sg-node']],
    ['no interface: nothing to change', [], ['sg-node'], ['sg-extra'], [], false, ['sg-extra', 'sg-node']],
  ] as const)('%s', ([, previous, core, additional, existing, changed, ids], context) => {
    context.expect(securityGroupsChanged(previous, core, additional, existing)).toEqual({ changed, ids });
  });
});

describe('a running instance follows additionalSecurityGroups', () => {
  it('attaches a group added after launch, detaches it once dropped, and keeps the core groups', async () => {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    for (const object of [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)]) await store.create(object);
    const providers = { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
    const run = async () => expect((await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers })).errors).toEqual([]);
    await run();
    const ec2 = cloud.forRegion('us-east-1').ec2;
    const instance = () => [...ec2.instances.values()][0];
    const launchedWith = [...(instance()?.securityGroupIds ?? [])].sort();
    expect(launchedWith).toHaveLength(2);

    const extra = await ec2.createSecurityGroup({ vpcId: instance()?.vpcId ?? '', name: 'monitoring', description: 'scrapers', tags: {} });
    const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: 'default', name: 'w-0' };
    const setGroups = async (groups: unknown[]) => {
      const current = await store.get(key);
      if (current) await store.update({ ...current, spec: { ...current.spec, additionalSecurityGroups: groups } });
      await run();
    };
    await setGroups([{ id: extra.id }]);
    expect([...(instance()?.securityGroupIds ?? [])].sort()).toEqual([...launchedWith, extra.id].sort());
    const machine = await store.get(key);
    expect(JSON.parse(machine?.metadata.annotations?.[SECURITY_GROUPS_LAST_APPLIED_ANNOTATION] ?? '{}')).toEqual({ [extra.id]: {} });
    expect(machine?.status?.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'SecurityGroupsReady', status: 'True' })]));

    await setGroups([]);
    expect([...(instance()?.securityGroupIds ?? [])].sort()).toEqual(launchedWith);
    expect(ec2.instances.size).toBe(1);
  });
});
