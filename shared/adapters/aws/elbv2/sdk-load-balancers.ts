/**
 * The LoadBalancers port on ELBv2 (`@aws-sdk/client-elastic-load-balancing-v2`): CAPA's control-plane
 * network load balancer, its TCP target group of instances and the TCP listener between them.
 *
 * Idempotency: every create looks the thing up by name first (ELBv2's own create is idempotent only
 * for identical settings, and moto's is not at all), a duplicate-name answer is resolved by looking
 * again, and deleting what is already gone succeeds. The client comes from the caller; built with
 * only a region it honours AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2.
 */

import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  DeregisterTargetsCommand,
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupAttributesCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  type ElasticLoadBalancingV2Client,
  ModifyTargetGroupAttributesCommand,
  RegisterTargetsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import { CloudApiError, isCloudApiError } from '../../../errors/index.js';
import type { LoadBalancer, LoadBalancers, TargetGroup } from '../../../ports/load-balancers.js';
import { absentOn, elbCall, INVALID_TARGET, LOAD_BALANCER_NOT_FOUND, TARGET_GROUP_NOT_FOUND } from './elbv2-errors.js';
import { isRegistered, loadBalancerOf, tagList, tagsFor } from './elbv2-shapes.js';

const DUPLICATE_LOAD_BALANCER = 'DuplicateLoadBalancerName';
const DUPLICATE_TARGET_GROUP = 'DuplicateTargetGroupName';

export class SdkLoadBalancers implements LoadBalancers {
  constructor(private readonly client: ElasticLoadBalancingV2Client) {}

  async findLoadBalancer(name: string): Promise<LoadBalancer | undefined> {
    const found = await absentOn('DescribeLoadBalancers', [LOAD_BALANCER_NOT_FOUND], () => this.client.send(new DescribeLoadBalancersCommand({ Names: [name] })));
    const lb = found?.LoadBalancers?.find((l) => l.LoadBalancerName === name && l.LoadBalancerArn);
    if (!lb?.LoadBalancerArn) return undefined;
    return loadBalancerOf(lb, await this.tagsOf(lb.LoadBalancerArn));
  }

  async createLoadBalancer(request: {
    name: string;
    scheme: 'internet-facing' | 'internal';
    subnetIds: readonly string[];
    securityGroupIds: readonly string[];
    tags: Tags;
  }): Promise<LoadBalancer> {
    const existing = await this.findLoadBalancer(request.name);
    if (existing) return existing;
    try {
      const created = await elbCall('CreateLoadBalancer', () =>
        this.client.send(
          new CreateLoadBalancerCommand({
            Name: request.name,
            Type: 'network',
            Scheme: request.scheme,
            IpAddressType: 'ipv4',
            Subnets: [...request.subnetIds],
            ...(request.securityGroupIds.length > 0 ? { SecurityGroups: [...request.securityGroupIds] } : {}),
            Tags: tagList(request.tags),
          }),
        ),
      );
      const lb = created.LoadBalancers?.[0];
      if (!lb?.LoadBalancerArn) throw new CloudApiError('CreateLoadBalancer', 'IncompleteResponse', `no load balancer in the answer for ${request.name}`);
      return loadBalancerOf(lb, { ...request.tags });
    } catch (error) {
      // Created by a concurrent or earlier attempt with other settings: the one that exists is the one.
      if (!isCloudApiError(error) || error.code !== DUPLICATE_LOAD_BALANCER) throw error;
      const raced = await this.findLoadBalancer(request.name);
      if (!raced) throw error;
      return raced;
    }
  }

  /** ELBv2 deletes the listeners with the load balancer; deleting one that is gone succeeds. */
  async deleteLoadBalancer(arn: string): Promise<void> {
    await absentOn('DeleteLoadBalancer', [LOAD_BALANCER_NOT_FOUND], () => this.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn })));
  }

  async findTargetGroup(name: string): Promise<TargetGroup | undefined> {
    const found = await absentOn('DescribeTargetGroups', [TARGET_GROUP_NOT_FOUND], () => this.client.send(new DescribeTargetGroupsCommand({ Names: [name] })));
    const tg = found?.TargetGroups?.find((g) => g.TargetGroupName === name && g.TargetGroupArn);
    if (!tg?.TargetGroupArn) return undefined;
    return { arn: tg.TargetGroupArn, name, port: tg.Port ?? 0, tags: await this.tagsOf(tg.TargetGroupArn) };
  }

  async createTargetGroup(request: { name: string; vpcId: string; port: number; tags: Tags }): Promise<TargetGroup> {
    const existing = await this.findTargetGroup(request.name);
    if (existing) return existing;
    try {
      const created = await elbCall('CreateTargetGroup', () =>
        this.client.send(
          new CreateTargetGroupCommand({
            Name: request.name,
            Protocol: 'TCP',
            Port: request.port,
            VpcId: request.vpcId,
            TargetType: 'instance',
            HealthCheckProtocol: 'TCP',
            Tags: tagList(request.tags),
          }),
        ),
      );
      const arn = created.TargetGroups?.[0]?.TargetGroupArn;
      if (!arn) throw new CloudApiError('CreateTargetGroup', 'IncompleteResponse', `no target group in the answer for ${request.name}`);
      return { arn, name: request.name, port: request.port, tags: { ...request.tags } };
    } catch (error) {
      if (!isCloudApiError(error) || error.code !== DUPLICATE_TARGET_GROUP) throw error;
      const raced = await this.findTargetGroup(request.name);
      if (!raced) throw error;
      return raced;
    }
  }

  /** `ResourceInUse` while a listener still forwards to it (for a moment after its load balancer went) stays an error: retry later. */
  async deleteTargetGroup(arn: string): Promise<void> {
    await absentOn('DeleteTargetGroup', [TARGET_GROUP_NOT_FOUND], () => this.client.send(new DeleteTargetGroupCommand({ TargetGroupArn: arn })));
  }

  async ensureTargetGroupAttributes(targetGroupArn: string, attributes: Readonly<Record<string, string>>): Promise<string[]> {
    const current = await elbCall('DescribeTargetGroupAttributes', () => this.client.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: targetGroupArn })));
    const values = new Map((current.Attributes ?? []).map((a) => [a.Key, a.Value]));
    const changed = Object.keys(attributes).filter((key) => values.get(key) !== attributes[key]).sort();
    if (changed.length === 0) return [];
    await elbCall('ModifyTargetGroupAttributes', () =>
      this.client.send(new ModifyTargetGroupAttributesCommand({ TargetGroupArn: targetGroupArn, Attributes: changed.map((Key) => ({ Key, Value: attributes[Key] })) })),
    );
    return changed;
  }

  async ensureListener(loadBalancerArn: string, port: number, targetGroupArn: string): Promise<void> {
    if (await this.hasListenerOn(loadBalancerArn, port)) return;
    await elbCall('CreateListener', () =>
      this.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: loadBalancerArn,
          Protocol: 'TCP',
          Port: port,
          DefaultActions: [{ Type: 'forward', TargetGroupArn: targetGroupArn }],
        }),
      ),
    );
  }

  /** Registering a registered target changes nothing (ELBv2 and moto agree). */
  async registerTarget(targetGroupArn: string, instanceId: string, port: number): Promise<void> {
    await elbCall('RegisterTargets', () => this.client.send(new RegisterTargetsCommand({ TargetGroupArn: targetGroupArn, Targets: [{ Id: instanceId, Port: port }] })));
  }

  /** A target that is not registered (`InvalidTarget`) or a group that is gone: nothing to deregister. */
  async deregisterTarget(targetGroupArn: string, instanceId: string, port: number): Promise<void> {
    await absentOn('DeregisterTargets', [INVALID_TARGET, TARGET_GROUP_NOT_FOUND], () =>
      this.client.send(new DeregisterTargetsCommand({ TargetGroupArn: targetGroupArn, Targets: [{ Id: instanceId, Port: port }] })),
    );
  }

  async describeTargets(targetGroupArn: string): Promise<string[]> {
    const health = await elbCall('DescribeTargetHealth', () => this.client.send(new DescribeTargetHealthCommand({ TargetGroupArn: targetGroupArn })));
    const ids = (health.TargetHealthDescriptions ?? []).flatMap((d) => (d.Target?.Id && isRegistered(d.TargetHealth?.State) ? [d.Target.Id] : []));
    return [...new Set(ids)].sort();
  }

  private async hasListenerOn(loadBalancerArn: string, port: number): Promise<boolean> {
    let marker: string | undefined;
    do {
      const page = await elbCall('DescribeListeners', () => this.client.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn, ...(marker ? { Marker: marker } : {}) })));
      if (page.Listeners?.some((l) => l.Port === port)) return true;
      marker = page.NextMarker;
    } while (marker);
    return false;
  }

  private async tagsOf(arn: string): Promise<Tags> {
    const described = await elbCall('DescribeTags', () => this.client.send(new DescribeTagsCommand({ ResourceArns: [arn] })));
    return tagsFor(described.TagDescriptions, arn);
  }
}
