/**
 * ELBv2 network load balancers in memory. A new load balancer is `provisioning` and `active` from
 * the next lookup (as moto answers). Names are unique, as on AWS (moto would accept a duplicate).
 */

import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import { CloudApiError } from '../../../errors/index.js';
import type { LoadBalancer, LoadBalancers, TargetGroup } from '../../../ports/load-balancers.js';

/** ELBv2's defaults for a TCP target group of instances (a subset: the ones capless sets). */
const TARGET_GROUP_DEFAULTS: Readonly<Record<string, string>> = {
  'deregistration_delay.timeout_seconds': '300',
  'deregistration_delay.connection_termination.enabled': 'false',
  'preserve_client_ip.enabled': 'true',
};

export class InMemoryLoadBalancers implements LoadBalancers {
  readonly loadBalancers = new Map<string, LoadBalancer & { subnetIds: string[] }>();
  readonly targetGroups = new Map<string, TargetGroup & { targets: Set<string>; attributes: Record<string, string> }>();
  readonly listeners = new Map<string, { port: number; targetGroupArn: string }[]>();
  private counter = 0;

  constructor(
    private readonly region = 'us-east-1',
    private readonly zoneOfSubnet: (subnetId: string) => string | undefined = () => undefined,
  ) {}

  async findLoadBalancer(name: string): Promise<LoadBalancer | undefined> {
    const found = [...this.loadBalancers.values()].find((lb) => lb.name === name);
    if (!found) return undefined;
    const view = structuredClone(found);
    if (found.state === 'provisioning') found.state = 'active';
    const { subnetIds: _subnets, ...rest } = view;
    return rest;
  }

  async createLoadBalancer(request: {
    name: string;
    scheme: 'internet-facing' | 'internal';
    subnetIds: readonly string[];
    securityGroupIds: readonly string[];
    tags: Tags;
  }): Promise<LoadBalancer> {
    if ([...this.loadBalancers.values()].some((lb) => lb.name === request.name)) {
      throw new CloudApiError('CreateLoadBalancer', 'DuplicateLoadBalancerName', `A load balancer with the name '${request.name}' already exists`);
    }
    const id = (++this.counter).toString(16).padStart(16, '0');
    const lb = {
      arn: `arn:aws:elasticloadbalancing:${this.region}:123456789012:loadbalancer/net/${request.name}/${id}`,
      name: request.name,
      dnsName: `${request.name}-${id}.elb.${this.region}.amazonaws.com`,
      scheme: request.scheme,
      state: 'provisioning' as const,
      availabilityZones: request.subnetIds.flatMap((s) => this.zoneOfSubnet(s) ?? []),
      subnetIds: [...request.subnetIds],
      tags: { ...request.tags },
    };
    this.loadBalancers.set(lb.arn, lb);
    const { subnetIds: _subnets, ...view } = structuredClone(lb);
    return view;
  }

  async deleteLoadBalancer(arn: string): Promise<void> {
    this.loadBalancers.delete(arn);
    this.listeners.delete(arn);
  }

  async findTargetGroup(name: string): Promise<TargetGroup | undefined> {
    const found = [...this.targetGroups.values()].find((tg) => tg.name === name);
    if (!found) return undefined;
    const { targets: _targets, attributes: _attributes, ...view } = found;
    return structuredClone(view);
  }

  async createTargetGroup(request: { name: string; vpcId: string; port: number; tags: Tags }): Promise<TargetGroup> {
    if ([...this.targetGroups.values()].some((tg) => tg.name === request.name)) {
      throw new CloudApiError('CreateTargetGroup', 'DuplicateTargetGroupName', `A target group with the name '${request.name}' already exists`);
    }
    const id = (++this.counter).toString(16).padStart(16, '0');
    const tg = { arn: `arn:aws:elasticloadbalancing:${this.region}:123456789012:targetgroup/${request.name}/${id}`, name: request.name, port: request.port, tags: { ...request.tags }, targets: new Set<string>(), attributes: { ...TARGET_GROUP_DEFAULTS } };
    this.targetGroups.set(tg.arn, tg);
    return { arn: tg.arn, name: tg.name, port: tg.port, tags: { ...tg.tags } };
  }

  async deleteTargetGroup(arn: string): Promise<void> {
    if ([...this.listeners.values()].some((ls) => ls.some((l) => l.targetGroupArn === arn))) {
      throw new CloudApiError('DeleteTargetGroup', 'ResourceInUse', `Target group '${arn}' is currently in use by a listener or a rule`);
    }
    this.targetGroups.delete(arn);
  }

  async ensureTargetGroupAttributes(targetGroupArn: string, attributes: Readonly<Record<string, string>>): Promise<string[]> {
    const tg = this.group('ModifyTargetGroupAttributes', targetGroupArn);
    const changed = Object.keys(attributes).filter((key) => tg.attributes[key] !== attributes[key]).sort();
    Object.assign(tg.attributes, attributes);
    return changed;
  }

  async ensureListener(loadBalancerArn: string, port: number, targetGroupArn: string): Promise<void> {
    if (!this.loadBalancers.has(loadBalancerArn)) throw new CloudApiError('CreateListener', 'LoadBalancerNotFound', `${loadBalancerArn} not found`);
    const listeners = this.listeners.get(loadBalancerArn) ?? [];
    if (!listeners.some((l) => l.port === port)) listeners.push({ port, targetGroupArn });
    this.listeners.set(loadBalancerArn, listeners);
  }

  async registerTarget(targetGroupArn: string, instanceId: string, _port: number): Promise<void> {
    this.group('RegisterTargets', targetGroupArn).targets.add(instanceId);
  }

  async deregisterTarget(targetGroupArn: string, instanceId: string, _port: number): Promise<void> {
    this.group('DeregisterTargets', targetGroupArn).targets.delete(instanceId);
  }

  async describeTargets(targetGroupArn: string): Promise<string[]> {
    return [...this.group('DescribeTargetHealth', targetGroupArn).targets].sort();
  }

  private group(operation: string, arn: string): TargetGroup & { targets: Set<string>; attributes: Record<string, string> } {
    const tg = this.targetGroups.get(arn);
    if (!tg) throw new CloudApiError(operation, 'TargetGroupNotFound', `Target groups '${arn}' not found`);
    return tg;
  }
}
