/**
 * A running AWSMachine's instance follows its additional tags (CAPA's ensureTags): the AWSCluster's
 * and the AWSMachine's `spec.additionalTags`, the last applied kept in CAPA's annotation, tags
 * dropped since removed (only while they keep the value applied), capless's own tags untouched.
 */
import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { TAGS_LAST_APPLIED_ANNOTATION, VOLUME_TAGS_LAST_APPLIED_ANNOTATION, lastAppliedTags, tagsChanged } from '../../../../functions/reconcile/infrastructure/aws/machine/tags-phase.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';

describe('tagsChanged (CAPA)', () => {
  it.for([
    ['nothing applied, nothing wanted', {}, {}, { changed: false, create: {}, delete: {} }],
    ['first run: every additional tag is created', {}, { team: 'a' }, { changed: true, create: { team: 'a' }, delete: {} }],
    ['a value changed', { team: 'a' }, { team: 'b' }, { changed: true, create: { team: 'b' }, delete: {} }],
    ['a tag dropped is deleted with its value', { team: 'a', cost: 'x' }, { team: 'a' }, { changed: true, create: {}, delete: { cost: 'x' } }],
    ['the same: nothing to do', { team: 'a' }, { team: 'a' }, { changed: false, create: {}, delete: {} }],
  ] as const)('%s', ([, last, wanted, expected], context) => {
    const { next, ...rest } = tagsChanged(last, wanted);
    context.expect(rest).toEqual(expected);
    context.expect(next).toEqual(wanted);
  });

  it.for([
    [undefined, {}],
    ['{"team":"a"}', { team: 'a' }],
    ['not json', {}],
    ['{"n":1,"team":"a"}', { team: 'a' }],
  ] as const)('reads the annotation %s', ([text, expected], context) => {
    context.expect(lastAppliedTags(text === undefined ? {} : { [TAGS_LAST_APPLIED_ANNOTATION]: text })).toEqual(expected);
  });
});

describe('a running instance follows the additional tags', () => {
  async function start(machineTags: Record<string, string>) {
    const clock = new FakeClock('2026-03-01T00:00:00Z');
    const store = new MemoryObjectStore({ clock });
    const cloud = new InMemoryAwsCloudFactory();
    const objects: KubeObject[] = [...awsClusterObjects('c1'), ...awsStandaloneMachine('w-0', 'c1', false)].map((o) => {
      if (o.kind === 'AWSMachine') return { ...o, spec: { ...o.spec, additionalTags: machineTags } };
      if (o.kind === 'AWSCluster') return { ...o, spec: { ...o.spec, additionalTags: { env: 'prod', team: 'cluster' } } };
      return o;
    });
    for (const object of objects) await store.create(object);
    const run = async () => {
      const stats = await converge(builtinProviderRegistry(), store, { clock, maxRounds: 60, providers: { [AWS_CLOUD_PORT]: cloud, [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) } });
      expect(stats.errors).toEqual([]);
    };
    await run();
    const ec2 = () => cloud.forRegion('us-east-1').ec2;
    const instance = () => [...ec2().instances.values()][0];
    const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: 'default', name: 'w-0' };
    const patch = async (change: (spec: Record<string, unknown>) => Record<string, unknown>) => {
      const current = await store.get(key);
      if (current) await store.update({ ...current, spec: change({ ...current.spec }) });
      await run();
    };
    return { store, key, instance, ec2, run, patch };
  }

  it('a tag added, changed and dropped on the AWSMachine reaches the instance and its volume; the machine wins over the cluster; capless tags stay', async () => {
    const { store, key, instance, ec2, patch } = await start({ team: 'machine' });
    expect(instance()?.tags).toMatchObject({ env: 'prod', team: 'machine', 'capless.io/managed': 'true' });
    expect(JSON.parse((await store.get(key))?.metadata.annotations?.[TAGS_LAST_APPLIED_ANNOTATION] ?? '{}')).toEqual({ env: 'prod', team: 'machine' });

    await patch((spec) => ({ ...spec, additionalTags: { team: 'renamed', cost: 'cc-1' } }));
    expect(instance()?.tags).toMatchObject({ env: 'prod', team: 'renamed', cost: 'cc-1' });

    await patch((spec) => ({ ...spec, additionalTags: { team: 'renamed' } }));
    const tags = instance()?.tags ?? {};
    expect(tags).not.toHaveProperty('cost');
    expect(tags).toMatchObject({ env: 'prod', team: 'renamed', 'capless.io/managed': 'true', 'sigs.k8s.io/cluster-api-provider-aws/cluster/c1': 'owned' });
    expect(JSON.parse((await store.get(key))?.metadata.annotations?.[TAGS_LAST_APPLIED_ANNOTATION] ?? '{}')).toEqual({ env: 'prod', team: 'renamed' });
    // The instance's volumes follow the same tags, recorded per volume.
    const volumeIds = instance()?.volumeIds ?? [];
    expect(volumeIds).toHaveLength(1);
    const [volume] = await ec2().describeVolumes(volumeIds);
    expect(volume?.tags).toMatchObject({ env: 'prod', team: 'renamed', 'capless.io/managed': 'true' });
    expect(volume?.tags).not.toHaveProperty('cost');
    expect(JSON.parse((await store.get(key))?.metadata.annotations?.[VOLUME_TAGS_LAST_APPLIED_ANNOTATION] ?? '{}')).toEqual({ [volumeIds[0] ?? '']: { env: 'prod', team: 'renamed' } });
  });

  it('a tag someone changed by hand since it was applied is not deleted', async () => {
    const { instance, patch } = await start({ cost: 'cc-1' });
    const current = instance();
    if (current) current.tags = { ...current.tags, cost: 'by-hand' };
    await patch((spec) => ({ ...spec, additionalTags: {} }));
    expect(instance()?.tags).toMatchObject({ cost: 'by-hand' });
  });
});
