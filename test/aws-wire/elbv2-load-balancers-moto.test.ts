/**
 * The ELBv2 SDK adapter on moto passes the LoadBalancers conformance suite the in-memory fake
 * passes, with the client configured only by the standard environment (AWS_ENDPOINT_URL,
 * AWS_REGION, credentials; test/aws-wire/aws-cloud-moto.test.ts checks the per-service variables).
 * It also records the ELBv2 actions the adapter sends and holds them to the IAM the provider declares.
 */

import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { SdkLoadBalancers } from '../../shared/adapters/aws/elbv2/sdk-load-balancers.js';
import type { ProviderPermission } from '../../shared/contracts/provider-contract.js';
import { AWS_CLUSTER_PERMISSIONS, AWS_MACHINE_PERMISSIONS } from '../../shared/contracts/providers/aws/aws-permissions.js';
import { describeLoadBalancersConformance } from '../conformance/load-balancers.conformance.js';

const REGION = 'us-east-1';
const saved = { ...process.env };

beforeAll(() => {
  process.env.AWS_ENDPOINT_URL = inject('motoEndpoint');
  process.env.AWS_REGION = REGION;
  process.env.AWS_ACCESS_KEY_ID = 'moto';
  process.env.AWS_SECRET_ACCESS_KEY = 'moto';
});

afterAll(() => {
  process.env = saved;
});

describeLoadBalancersConformance('ELBv2 SDK adapter on moto', async () => ({
  cloud: new SdkAwsCloudFactory().forRegion(REGION),
  imageId: 'ami-12c6146b',
}));

/** The ELBv2 actions a reconciler is granted, less AddTags (what IAM checks for tags passed to a create, never sent itself). */
function grantedElbActions(permissions: readonly ProviderPermission[]): string[] {
  const actions = permissions.flatMap((p) => p.actions).filter((a) => a.startsWith('elasticloadbalancing:') && a !== 'elasticloadbalancing:AddTags');
  return [...new Set(actions)].sort();
}

describe('ELBv2 actions the adapter sends', () => {
  it('the AWSCluster and AWSMachine reconcilers’ calls send exactly the ELBv2 actions each is granted', async () => {
    const client = new ElasticLoadBalancingV2Client({ region: REGION });
    const sent = { cluster: new Set<string>(), machine: new Set<string>() };
    let caller: keyof typeof sent = 'cluster';
    client.middlewareStack.add(
      (next, context) => (args) => {
        sent[caller].add(`elasticloadbalancing:${String(context.commandName).replace(/Command$/, '')}`);
        return next(args);
      },
      { step: 'initialize', name: 'recordElbAction' },
    );
    const lbs = new SdkLoadBalancers(client);
    const { ec2 } = new SdkAwsCloudFactory().forRegion(REGION);
    const [zone] = await ec2.describeAvailabilityZones();
    const vpc = await ec2.createVpc({ cidrBlock: '10.2.0.0/16', tags: { Name: 'actions' } });
    const subnet = await ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.2.0.0/24', availabilityZone: zone?.name ?? '', tags: { Name: 'actions' } });
    const suffix = Date.now().toString(36);

    // What the AWSCluster reconciler calls to create the load balancer …
    const lb = (await lbs.findLoadBalancer(`act-${suffix}`)) ?? (await lbs.createLoadBalancer({ name: `act-${suffix}`, scheme: 'internal', subnetIds: [subnet.id], securityGroupIds: [], tags: { a: 'b' } }));
    const tg = (await lbs.findTargetGroup(`act-${suffix}`)) ?? (await lbs.createTargetGroup({ name: `act-${suffix}`, vpcId: vpc.id, port: 6443, tags: { a: 'b' } }));
    await lbs.ensureTargetGroupAttributes(tg.arn, { 'preserve_client_ip.enabled': 'false' });
    await lbs.ensureListener(lb.arn, 6443, tg.arn);
    // … the AWSMachine reconciler to attach and detach an instance …
    caller = 'machine';
    if (!(await lbs.describeTargets(tg.arn)).includes('i-0123456789abcdef0')) await lbs.registerTarget(tg.arn, 'i-0123456789abcdef0', 6443);
    if ((await lbs.describeTargets(tg.arn)).includes('i-0123456789abcdef0')) await lbs.deregisterTarget(tg.arn, 'i-0123456789abcdef0', 6443);
    // … and the AWSCluster reconciler to delete them (it checks they are its own by their tags).
    caller = 'cluster';
    const ownLb = await lbs.findLoadBalancer(lb.name);
    if (ownLb?.tags.a === 'b') await lbs.deleteLoadBalancer(ownLb.arn);
    const ownTg = await lbs.findTargetGroup(tg.name);
    if (ownTg?.tags.a === 'b') await lbs.deleteTargetGroup(ownTg.arn);
    expect([ownLb?.arn, ownTg?.arn]).toEqual([lb.arn, tg.arn]);

    expect([...sent.cluster].sort()).toEqual(grantedElbActions(AWS_CLUSTER_PERMISSIONS));
    expect([...sent.machine].sort()).toEqual(grantedElbActions(AWS_MACHINE_PERMISSIONS));
  });
});
