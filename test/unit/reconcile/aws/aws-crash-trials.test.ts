/**
 * Crash trials: a reconcile killed at a random await point (an EC2, Secrets Manager or ELB call,
 * or a store write; before the call or after it took effect) during create and during delete, then
 * resumed as a restarted process would. Afterwards: exactly one instance per AWSMachine, and no
 * orphan (no live capless instance that no AWSMachine records; after deletion nothing left).
 * Half the trials run against an EC2 that honours ClientToken with lagging reads (AWS), half
 * against one that ignores it with consistent reads (moto), so each guard is proven on its own.
 */

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { InMemoryAwsCloudFactory } from '../../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { AWS_CLOUD_PORT } from '../../../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../../../support/aws-fixtures.js';
import { converge } from '../../../support/converge.js';
import { Ec2WorkloadNodes } from '../../../support/ec2-workload-nodes.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { type CrashTiming, FaultPlan, FaultyAwsCloud, FaultyStore } from '../../../support/fault-injection.js';

const TRIALS = 100;
const INFRA = 'infrastructure.cluster.x-k8s.io';

/** mulberry32: a seeded PRNG, so a failing trial can be replayed from its number. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface World {
  cloud: InMemoryAwsCloudFactory;
  store: MemoryObjectStore;
  plan: FaultPlan;
  run(): Promise<unknown>;
}

async function world(trial: number): Promise<World> {
  const awsLike = trial % 2 === 0;
  const cloud = new InMemoryAwsCloudFactory(awsLike ? { honourClientToken: true, describeLagCalls: 1 } : { honourClientToken: false });
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  for (const object of [...awsClusterObjects('c1'), ...awsStandaloneMachine('cp-0', 'c1', true), ...awsStandaloneMachine('w-0', 'c1', false)]) await store.create(object);
  const plan = new FaultPlan();
  const registry = builtinProviderRegistry();
  const providers = { [AWS_CLOUD_PORT]: new FaultyAwsCloud(cloud, plan), [WORKLOAD_CLUSTER_PORT]: new Ec2WorkloadNodes(cloud, store) };
  const faulty = new FaultyStore(store, plan);
  return { cloud, store, plan, run: () => converge(registry, faulty, { clock, maxRounds: 300, providers }) };
}

async function liveInstances(w: World) {
  return [...w.cloud.forRegion('us-east-1').ec2.instances.values()].filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down');
}

async function expectOneInstancePerAwsMachine(w: World, context: string): Promise<void> {
  const awsMachines = (await w.store.list({ group: INFRA, kind: 'AWSMachine', namespace: NS })).items;
  const live = await liveInstances(w);
  for (const awsMachine of awsMachines) {
    const mine = live.filter((i) => i.tags.Name === awsMachine.metadata.name);
    expect(mine.map((i) => i.id), `${context}: instances of ${awsMachine.metadata.name}`).toEqual([stringAt(awsMachine, 'spec', 'instanceID')]);
  }
  expect(live, `${context}: live instances`).toHaveLength(awsMachines.length);
}

/** The await points a clean create and a clean delete pass through, in order. */
async function cleanRunPoints(): Promise<{ create: string[]; delete: string[] }> {
  const w = await world(1);
  w.plan.arm(Number.POSITIVE_INFINITY, 'before');
  await w.run();
  const create = [...w.plan.points];
  await w.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'c1' });
  w.plan.arm(Number.POSITIVE_INFINITY, 'before');
  await w.run();
  return { create, delete: [...w.plan.points] };
}

/**
 * Where trial `trial` crashes. The first trials take the first occurrence of every distinct await
 * point, right after the call took effect (the harder case: "before call N" is "after call N-1"),
 * once on each EC2 flavour; the rest are uniformly random in place and timing.
 */
function crashAt(points: readonly string[], trial: number, next: () => number): { index: number; timing: CrashTiming } {
  const firsts = [...new Set(points)].map((p) => points.indexOf(p));
  const slot = Math.floor(trial / 2);
  const first = firsts[slot];
  if (first !== undefined) return { index: first + 1, timing: 'after' };
  return { index: 1 + Math.floor(next() * points.length), timing: next() < 0.5 ? 'before' : 'after' };
}

describe('AWS provider crash trials', () => {
  it(`${TRIALS} trials, each killed once at a random await point during create and once during delete: one instance per AWSMachine, no orphans`, async () => {
    const points = await cleanRunPoints();
    expect(new Set(points.create)).toContain('ec2.runInstance');
    // Every distinct await point of create and delete gets a trial on each EC2 flavour within the hundred.
    expect(Math.max(new Set(points.create).size, new Set(points.delete).size) * 2).toBeLessThanOrEqual(TRIALS);
    const crashedAt = new Set<string>();
    for (let trial = 0; trial < TRIALS; trial++) {
      const next = random(trial + 1);
      const w = await world(trial);

      const createCrash = crashAt(points.create, trial, next);
      w.plan.arm(createCrash.index, createCrash.timing);
      await w.run();
      w.plan.disarm();
      await w.run();
      if (w.plan.crashed) crashedAt.add(w.plan.crashed);
      await expectOneInstancePerAwsMachine(w, `trial ${trial} create, crash at ${w.plan.crashed}`);

      await w.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: 'c1' });
      const deleteCrash = crashAt(points.delete, trial, next);
      w.plan.arm(deleteCrash.index, deleteCrash.timing);
      await w.run();
      w.plan.disarm();
      await w.run();
      if (w.plan.crashed) crashedAt.add(`delete: ${w.plan.crashed}`);
      const region = w.cloud.forRegion('us-east-1');
      const context = `trial ${trial} delete, crash at ${w.plan.crashed}`;
      expect(await liveInstances(w), context).toEqual([]);
      expect([...region.ec2.instances.values()].filter((i) => i.state !== 'terminated'), context).toEqual([]);
      expect(region.ec2.instances.size, `${context}: instances ever launched`).toBe(2);
      expect([region.ec2.vpcs.size, region.ec2.subnets.size, region.ec2.securityGroups.size, region.loadBalancers.loadBalancers.size, region.secrets.secrets.size], context).toEqual([0, 0, 0, 0, 0]);
      expect((await w.store.list({ group: INFRA, kind: 'AWSMachine' })).items, context).toEqual([]);
    }
    // The trials reached the launch path's dangerous points, not only harmless ones.
    expect([...crashedAt].some((p) => p.startsWith('ec2.runInstance (after)'))).toBe(true);
    expect([...crashedAt].some((p) => p.startsWith('store.update'))).toBe(true);
  }, 300_000);
});
