/**
 * Crash trials on moto: the AWS provider's reconcile killed once during create and once during
 * delete at an await point (an EC2 or Secrets Manager call after it took effect on moto, or the
 * store write that follows), then resumed. Every call goes to moto, ELBv2 included. moto ignores ClientToken, so what keeps an AWSMachine
 * to one instance here is the lookup by tags (and moto accepts a second load balancer of one name,
 * so the adapter's lookup by name is what keeps it to one). Afterwards: one instance per
 * AWSMachine, one load balancer targeting the control-plane instance, and after deletion no live
 * instance, VPC, secret, load balancer or target group of the cluster. The 100-trial version runs on the
 * in-memory EC2 (test/unit/reconcile/aws/aws-crash-trials.test.ts).
 */

import { DescribeInstancesCommand, DescribeVpcsCommand, EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ListSecretsCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { builtinProviderRegistry } from '../../functions/reconcile/engine/providers/builtin.js';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { stringAt } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { AWS_CLOUD_PORT } from '../../shared/ports/aws-cloud.js';
import { WORKLOAD_CLUSTER_PORT } from '../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { awsClusterObjects, awsStandaloneMachine, NS } from '../support/aws-fixtures.js';
import { BootingWorkloadCluster } from '../support/booting-workload.js';
import { clusterLoadBalancing } from '../support/cluster-load-balancing.js';
import { converge } from '../support/converge.js';
import { FakeClock } from '../support/fake-clock.js';
import { type CrashTiming, FaultPlan, FaultyAwsCloud, FaultyStore } from '../support/fault-injection.js';
import { createMotoInstanceProfile } from '../support/moto-iam.js';

const TRIALS = 10;
const REGION = 'us-east-1';
const RUN = Date.now().toString(36);
const saved = { ...process.env };
/** The points where a lost answer could cost a duplicate or an orphan, aimed at first. */
const AIMED = [
  'ec2.runInstance',
  'store.update',
  'secrets.createSecret',
  'elb.createLoadBalancer',
  'elb.registerTarget',
  'ec2.terminateInstances',
  'secrets.deleteSecret',
  'elb.deleteLoadBalancer',
];

let ec2: EC2Client;
let secrets: SecretsManagerClient;
let elbv2: ElasticLoadBalancingV2Client;

/** The fixtures with the standalone machines' AMI swapped for one moto knows. */
function objects(cluster: string): KubeObject[] {
  return [...awsClusterObjects(cluster), ...awsStandaloneMachine(`${cluster}-cp`, cluster, true), ...awsStandaloneMachine(`${cluster}-w`, cluster, false)].map((o) =>
    o.kind === 'AWSMachine' ? { ...o, spec: { ...o.spec, ami: { id: 'ami-12c6146b' } } } : o,
  );
}

async function world(cluster: string) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  for (const object of objects(cluster)) await store.create(object);
  const plan = new FaultPlan();
  const cloud = new SdkAwsCloudFactory();
  const workload = new BootingWorkloadCluster(cloud);
  const providers = { [AWS_CLOUD_PORT]: new FaultyAwsCloud(cloud, plan), [WORKLOAD_CLUSTER_PORT]: workload };
  const faulty = new FaultyStore(store, plan);
  const registry = builtinProviderRegistry();
  const run = async () => {
    // Two passes: a crashed reconcile's retry may come after the harness's first quiet round.
    for (let pass = 0; pass < 2; pass++) await converge(registry, faulty, { clock, maxRounds: 120, providers });
  };
  return { store, plan, run, close: () => workload.destroy() };
}

async function instancesOf(cluster: string): Promise<Instance[]> {
  const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${cluster}`, Values: ['owned'] }] }));
  return (out.Reservations ?? []).flatMap((r) => r.Instances ?? []).filter((i) => i.State?.Name !== 'terminated' && i.State?.Name !== 'shutting-down');
}

function crashPoint(points: readonly string[], trial: number): { index: number; timing: CrashTiming } {
  const aimed = AIMED[trial % AIMED.length] ?? '';
  const first = points.indexOf(aimed);
  if (trial < AIMED.length && first >= 0) return { index: first + 1, timing: 'after' };
  const seed = (trial * 2654435761) % 2 ** 32;
  return { index: 1 + (seed % points.length), timing: seed % 2 === 0 ? 'after' : 'before' };
}

describe('AWS provider crash trials on moto', () => {
  beforeAll(async () => {
    const endpoint = inject('motoEndpoint');
    Object.assign(process.env, { AWS_ENDPOINT_URL: endpoint, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'moto', AWS_SECRET_ACCESS_KEY: 'moto' });
    for (const profile of ['control-plane.cluster-api-provider-aws.sigs.k8s.io', 'nodes.cluster-api-provider-aws.sigs.k8s.io']) await createMotoInstanceProfile(endpoint, profile);
    ec2 = new EC2Client({ region: REGION });
    secrets = new SecretsManagerClient({ region: REGION });
    elbv2 = new ElasticLoadBalancingV2Client({ region: REGION });
  });

  afterAll(() => {
    ec2?.destroy();
    secrets?.destroy();
    elbv2?.destroy();
    process.env = saved;
  });

  it(`${TRIALS} trials, each killed once during create and once during delete: one instance per AWSMachine, nothing left`, async () => {
    const clean = await world(`clean-${RUN}`);
    clean.plan.arm(Number.POSITIVE_INFINITY, 'before');
    await clean.run();
    const createPoints = [...clean.plan.points];
    await clean.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: `clean-${RUN}` });
    clean.plan.arm(Number.POSITIVE_INFINITY, 'before');
    await clean.run();
    const deletePoints = [...clean.plan.points];
    clean.close();

    for (let trial = 0; trial < TRIALS; trial++) {
      const cluster = `t${trial}-${RUN}`;
      const w = await world(cluster);
      const create = crashPoint(createPoints, trial);
      w.plan.arm(create.index, create.timing);
      await w.run();
      const createCrash = w.plan.crashed;
      const awsMachines = (await w.store.list({ group: 'infrastructure.cluster.x-k8s.io', kind: 'AWSMachine', namespace: NS })).items;
      const live = await instancesOf(cluster);
      for (const awsMachine of awsMachines) {
        const mine = live.filter((i) => i.Tags?.some((t) => t.Key === 'Name' && t.Value === awsMachine.metadata.name));
        expect(mine.map((i) => i.InstanceId), `trial ${trial}, crash at ${createCrash}`).toEqual([stringAt(awsMachine, 'spec', 'instanceID')]);
      }
      expect(live, `trial ${trial}, crash at ${createCrash}`).toHaveLength(2);
      const controlPlane = live.filter((i) => i.Tags?.some((t) => t.Key === 'sigs.k8s.io/cluster-api-provider-aws/role' && t.Value === 'control-plane'));
      const balancing = await clusterLoadBalancing(elbv2, cluster);
      expect(balancing.loadBalancers, `trial ${trial}, crash at ${createCrash}`).toHaveLength(1);
      expect(balancing.targetGroups.map((tg) => tg.targets), `trial ${trial}, crash at ${createCrash}`).toEqual([controlPlane.map((i) => i.InstanceId)]);

      await w.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: cluster });
      const remove = crashPoint(deletePoints, trial);
      w.plan.arm(remove.index, remove.timing);
      await w.run();
      const context = `trial ${trial}, delete crash at ${w.plan.crashed}`;
      expect(await instancesOf(cluster), context).toEqual([]);
      const vpcs = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${cluster}`, Values: ['owned'] }] }));
      expect(vpcs.Vpcs, context).toEqual([]);
      const left = await secrets.send(new ListSecretsCommand({ Filters: [{ Key: 'tag-key', Values: [`sigs.k8s.io/cluster-api-provider-aws/cluster/${cluster}`] }] }));
      expect(left.SecretList ?? [], context).toEqual([]);
      expect(await clusterLoadBalancing(elbv2, cluster), context).toEqual({ loadBalancers: [], targetGroups: [] });
      w.close();
    }
  }, 280_000);
});
