/**
 * CAPA's cluster template on moto through `capless up`'s API: 3 control-plane and 2 worker
 * machines on real EC2 calls (moto), user data through Secrets Manager, the control plane behind
 * the load balancer, Nodes reported by a workload stand-in that boots each instance from its user
 * data; then deletion leaves nothing capless created, load balancer and target group included.
 * Every AWS call goes to moto (EC2, Secrets Manager and ELBv2), configured only by AWS_ENDPOINT_URL.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeInstancesCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { DescribeTargetGroupAttributesCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ListSecretsCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadBalancerName } from '../../functions/reconcile/infrastructure/aws/cluster/load-balancer-phase.js';
import { type ControlPlane, startControlPlane } from '../../local/control-plane.js';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { stringAt } from '../../shared/contracts/json.js';
import { groupOf } from '../../shared/contracts/object.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';
import { BootingWorkloadCluster } from '../support/booting-workload.js';
import { capaTemplateDocuments } from '../support/capa-template.js';
import { clusterLoadBalancing } from '../support/cluster-load-balancing.js';
import { eventually } from '../support/eventually.js';
import { createMotoInstanceProfile } from '../support/moto-iam.js';
import { RestClient } from '../support/rest-client.js';

const REGION = 'us-east-1';
const CLUSTER = `capa-${Date.now().toString(36)}`;
const NS = 'default';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CORE = 'cluster.x-k8s.io/v1beta2';
const WAIT = { timeoutMs: 150_000, intervalMs: 500 };
const saved = { ...process.env };

const documents = capaTemplateDocuments({ CLUSTER_NAME: CLUSTER, AWS_REGION: REGION, KUBERNETES_VERSION: 'v1.32.0' });
const served = (documents ?? []).filter((d) => defaultKinds.get(groupOf(String(d.apiVersion)), String(d.kind)) !== undefined);
const unserved = (documents ?? []).filter((d) => !served.includes(d));

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;
let workload: BootingWorkloadCluster;
let elbv2: ElasticLoadBalancingV2Client;
let ec2: EC2Client;
let secrets: SecretsManagerClient;

async function clusterInstances(): Promise<Instance[]> {
  const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${CLUSTER}`, Values: ['owned'] }] }));
  return (out.Reservations ?? []).flatMap((r) => r.Instances ?? []);
}

const live = (instances: Instance[]) => instances.filter((i) => i.State?.Name !== 'terminated' && i.State?.Name !== 'shutting-down');
const tag = (instance: Instance, key: string) => instance.Tags?.find((t) => t.Key === key)?.Value;

describe("CAPA's cluster template on moto", () => {
  if (documents === undefined) {
    it('applies, scales, upgrades and deletes (skipped)', (context) =>
      context.skip("CAPA's cluster template (../shared/capi-samples) is absent: the EC2 scenario has no manifest to apply"));
    return;
  }
  beforeAll(async () => {
    const endpoint = inject('motoEndpoint');
    Object.assign(process.env, { AWS_ENDPOINT_URL: endpoint, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'moto', AWS_SECRET_ACCESS_KEY: 'moto' });
    for (const profile of ['control-plane.cluster-api-provider-aws.sigs.k8s.io', 'nodes.cluster-api-provider-aws.sigs.k8s.io']) await createMotoInstanceProfile(endpoint, profile);
    ec2 = new EC2Client({ region: REGION });
    secrets = new SecretsManagerClient({ region: REGION });
    elbv2 = new ElasticLoadBalancingV2Client({ region: REGION });
    const cloud = new SdkAwsCloudFactory();
    workload = new BootingWorkloadCluster(cloud);
    dataDir = await mkdtemp(join(tmpdir(), 'capless-ec2-'));
    plane = await startControlPlane({ dataDir, port: 0, persist: false, resyncSeconds: 3600, awsCloud: cloud, workloadCluster: workload });
    api = new RestClient(plane.url, plane.token);
  });

  afterAll(async () => {
    await plane?.stop();
    workload?.destroy();
    ec2?.destroy();
    elbv2?.destroy();
    secrets?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    process.env = saved;
  });

  it('serves every kind of the template, ClusterResourceSets included', () => {
    expect(served.filter((d) => d.kind === 'ClusterResourceSet')).toHaveLength(2);
    expect(unserved.map((d) => d.kind)).toEqual([]);
  });

  it('applies unchanged and brings 5 instances, the network and the load balancer up, with the ClusterResourceSets applied', async () => {
    for (const document of served) await api.mustCreateDocument(document);

    const cluster = await eventually(
      'the Cluster to be Available with 5 Running Machines',
      async (report) => {
        const current = await api.get(CORE, 'Cluster', NS, CLUSTER);
        const available = findCondition(conditionsOf(current?.status), 'Available');
        const phases = (await api.list(CORE, 'Machine', NS)).map((m) => stringAt(m, 'status', 'phase'));
        report({ available, phases, instances: (await clusterInstances()).length });
        return available?.status === 'True' && phases.length === 5 && phases.every((p) => p === 'Running') ? current : undefined;
      },
      WAIT,
    );
    expect(cluster).toBeDefined();

    const instances = live(await clusterInstances());
    expect(instances).toHaveLength(5);
    expect(instances.map((i) => tag(i, 'sigs.k8s.io/cluster-api-provider-aws/role')).sort()).toEqual(['control-plane', 'control-plane', 'control-plane', 'node', 'node']);
    const awsMachines = await api.list(INFRA, 'AWSMachine', NS);
    expect(awsMachines).toHaveLength(5);
    for (const awsMachine of awsMachines) {
      const owned = instances.filter((i) => tag(i, 'Name') === awsMachine.metadata.name);
      expect(owned.map((i) => i.InstanceId)).toEqual([stringAt(awsMachine, 'spec', 'instanceID')]);
      expect(owned[0]?.ImageId).toBe('ami-0c0a0000000013201'); // the newest capa-ami-ubuntu-24.04-?1.32.0-* of CAPA's account
      expect(tag(owned[0] ?? {}, `kubernetes.io/cluster/${CLUSTER}`)).toBe('owned');
    }

    // Each instance booted the bootstrap data of its own Machine, fetched from Secrets Manager.
    const machines = await api.list(CORE, 'Machine', NS);
    for (const machine of machines) {
      const secretName = stringAt(machine, 'spec', 'bootstrap', 'dataSecretName') ?? '';
      const bootstrap = await api.get('v1', 'Secret', NS, secretName);
      const awsMachine = awsMachines.find((m) => m.metadata.name === stringAt(machine, 'spec', 'infrastructureRef', 'name'));
      const booted = workload.booted.get(stringAt(awsMachine, 'spec', 'instanceID') ?? '');
      expect(booted?.viaSecretsManager).toBe(true);
      expect(booted?.bootstrapData).toBe(Buffer.from(bootstrap?.data?.value ?? '', 'base64').toString('utf8'));
      expect(stringAt(machine, 'status', 'phase')).toBe('Running');
    }

    // Each Node carries its Machine's bookkeeping annotations; the workers registered with kubeadm's
    // uninitialized taint (their JoinConfiguration gives it), which the Machine removed once it synced them.
    for (const machine of machines) {
      const awsMachine = awsMachines.find((m) => m.metadata.name === stringAt(machine, 'spec', 'infrastructureRef', 'name'));
      const providerID = stringAt(awsMachine, 'spec', 'providerID') ?? '';
      const node = await workload.findNodeByProviderID({ namespace: NS, name: CLUSTER }, providerID);
      expect(node?.annotations).toMatchObject({ 'cluster.x-k8s.io/machine': machine.metadata.name, 'cluster.x-k8s.io/cluster-name': CLUSTER, 'cluster.x-k8s.io/cluster-namespace': NS });
      expect(node?.taints?.map((t) => t.key)).not.toContain('node.cluster.x-k8s.io/uninitialized');
      const worker = machine.metadata.labels?.['cluster.x-k8s.io/control-plane'] === undefined;
      expect(workload.booted.get(stringAt(awsMachine, 'spec', 'instanceID') ?? '')?.bootstrapData.includes('node.cluster.x-k8s.io/uninitialized')).toBe(worker);
    }

    // ELBv2 (moto) holds one network load balancer and one target group, targeting the 3 control-plane instances.
    const balancing = await clusterLoadBalancing(elbv2, CLUSTER);
    const controlPlaneIds = instances.filter((i) => tag(i, 'sigs.k8s.io/cluster-api-provider-aws/role') === 'control-plane').map((i) => i.InstanceId);
    expect(balancing.loadBalancers.map((lb) => lb.name)).toEqual([loadBalancerName(NS, CLUSTER)]);
    expect(balancing.targetGroups).toHaveLength(1);
    expect(balancing.targetGroups[0]?.targets).toEqual(controlPlaneIds.sort());
    const { Attributes } = await elbv2.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: balancing.targetGroups[0]?.arn }));
    expect(Object.fromEntries((Attributes ?? []).map((a) => [a.Key, a.Value]))).toMatchObject({ 'preserve_client_ip.enabled': 'false', 'deregistration_delay.timeout_seconds': '300' });
    const awsCluster = await api.get(INFRA, 'AWSCluster', NS, CLUSTER);
    expect(stringAt(awsCluster, 'spec', 'controlPlaneEndpoint', 'host')).toBe(balancing.loadBalancers[0]?.dnsName);
    const vpcs = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${CLUSTER}`, Values: ['owned'] }] }));
    expect(vpcs.Vpcs).toHaveLength(1);

    // The template's ClusterResourceSets (cloud controller manager, EBS CSI driver) reached the workload cluster and their binding.
    const applied = await eventually('the ClusterResourceSets to be applied', async (report) => {
      const objects = workload.objects.objectsOf({ namespace: NS, name: CLUSTER });
      report(objects.map((o) => `${o.kind}/${o.metadata.name}`));
      return objects.some((o) => o.kind === 'DaemonSet' && o.metadata.name === 'aws-cloud-controller-manager') && objects.some((o) => o.metadata.name === 'ebs-csi-controller') ? objects : undefined;
    }, WAIT);
    expect(applied.length).toBeGreaterThan(10);
    // Each set records what it applied after applying it, so the binding may trail the objects.
    const recorded = await eventually('both sets recorded in the binding', async (report) => {
      const binding = await api.get('addons.cluster.x-k8s.io/v1beta2', 'ClusterResourceSetBinding', NS, CLUSTER);
      const bindings = binding?.spec?.bindings;
      const names = Array.isArray(bindings) ? bindings.map((b: unknown) => stringAt(b, 'clusterResourceSetName')).sort() : [];
      report(names);
      return names.length === 2 ? names : undefined;
    }, WAIT);
    expect(recorded).toEqual(['crs-ccm', 'crs-csi']);
  });

  it("fills both AWSMachineTemplates' status for the autoscaler's scale from zero from moto's DescribeInstanceTypes and the default image", async () => {
    const templates = await eventually(
      'both AWSMachineTemplates to carry capacity and nodeInfo',
      async (report) => {
        const listed = await api.list(INFRA, 'AWSMachineTemplate', NS);
        report(listed.map((t) => ({ name: t.metadata.name, status: t.status })));
        return listed.length === 2 && listed.every((t) => stringAt(t, 'status', 'nodeInfo', 'operatingSystem')) ? listed : undefined;
      },
      WAIT,
    );
    // t3.large (the template's default machine type): 2 vCPUs, 8,192 MiB, x86_64; the capa-ami image is Linux.
    for (const template of templates) {
      expect(template.status).toMatchObject({ capacity: { cpu: '2', memory: '8Gi' }, nodeInfo: { architecture: 'amd64', operatingSystem: 'linux' } });
    }
  });

  it('scales the workers and upgrades the control plane: old instances terminated, new ones launched, never two for one AWSMachine', async () => {
    const before = live(await clusterInstances());
    const oldControlPlaneNodes = (await api.list(CORE, 'Machine', NS))
      .filter((m) => m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined)
      .map((m) => stringAt(m, 'status', 'nodeRef', 'name') ?? '');
    await api.mergePatch(CORE, 'MachineDeployment', NS, `${CLUSTER}-md-0`, { spec: { replicas: 3 } });
    await api.mergePatch('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane', NS, `${CLUSTER}-control-plane`, { spec: { version: 'v1.33.0' } });
    let maxPerAwsMachine = 0;
    await eventually(
      'three v1.33.0 control-plane and three worker Machines Running',
      async (report) => {
        const instances = live(await clusterInstances());
        const perName = new Map<string, number>();
        for (const i of instances) perName.set(tag(i, 'Name') ?? '', (perName.get(tag(i, 'Name') ?? '') ?? 0) + 1);
        maxPerAwsMachine = Math.max(maxPerAwsMachine, ...perName.values());
        const machines = await api.list(CORE, 'Machine', NS);
        const running = machines.filter((m) => stringAt(m, 'status', 'phase') === 'Running');
        const upgraded = running.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined && stringAt(m, 'spec', 'version') === 'v1.33.0');
        report({ machines: machines.length, running: running.length, upgraded: upgraded.length, instances: instances.length });
        return machines.length === 6 && running.length === 6 && upgraded.length === 3 && instances.length === 6 ? true : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 1000 },
    );
    expect(maxPerAwsMachine).toBe(1);
    const after = live(await clusterInstances());
    const replacedControlPlane = before.filter((i) => tag(i, 'sigs.k8s.io/cluster-api-provider-aws/role') === 'control-plane');
    for (const old of replacedControlPlane) expect(after.map((i) => i.InstanceId)).not.toContain(old.InstanceId);
    const newControlPlane = after.filter((i) => tag(i, 'sigs.k8s.io/cluster-api-provider-aws/role') === 'control-plane');
    expect(newControlPlane.map((i) => i.ImageId)).toEqual(['ami-0c0a0000000013300', 'ami-0c0a0000000013300', 'ami-0c0a0000000013300']);
    const [targetGroup] = (await clusterLoadBalancing(elbv2, CLUSTER)).targetGroups;
    expect(targetGroup?.targets).toEqual(newControlPlane.map((i) => i.InstanceId).sort());
    // Each replaced control-plane Machine deleted its Node from the workload cluster once its instance was gone.
    expect(oldControlPlaneNodes).toHaveLength(3);
    for (const node of oldControlPlaneNodes) expect(workload.objects.nodes.wasDeleted({ namespace: NS, name: CLUSTER }, node)).toBe(true);
  });

  it('deletes everything capless created', async () => {
    expect((await api.delete(CORE, 'Cluster', NS, CLUSTER)).status).toBeLessThan(300);
    await eventually(
      'the Cluster to be gone',
      async (report) => {
        const remaining = await api.get(CORE, 'Cluster', NS, CLUSTER);
        report({ remaining: remaining?.metadata.finalizers, instances: live(await clusterInstances()).length });
        return remaining === undefined ? true : undefined;
      },
      WAIT,
    );
    expect(live(await clusterInstances())).toEqual([]);
    const owned = [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${CLUSTER}`, Values: ['owned'] }];
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: owned }))).Vpcs).toEqual([]);
    expect((await ec2.send(new DescribeSubnetsCommand({ Filters: owned }))).Subnets).toEqual([]);
    const leftSecrets = await secrets.send(new ListSecretsCommand({ Filters: [{ Key: 'tag-key', Values: [`sigs.k8s.io/cluster-api-provider-aws/cluster/${CLUSTER}`] }] }));
    expect(leftSecrets.SecretList ?? []).toEqual([]);
    expect(await clusterLoadBalancing(elbv2, CLUSTER)).toEqual({ loadBalancers: [], targetGroups: [] });
  });
});
