import type { Tags } from '../contracts/providers/aws/aws-tags.js';

export interface LoadBalancer {
  arn: string;
  name: string;
  dnsName: string;
  scheme: 'internet-facing' | 'internal';
  state: 'provisioning' | 'active' | 'failed';
  availabilityZones: string[];
  tags: Tags;
}

export interface TargetGroup {
  arn: string;
  name: string;
  port: number;
  tags: Tags;
}

/**
 * The control plane's network load balancer (ELBv2): shared/adapters/aws/elbv2/ on the SDK,
 * shared/adapters/memory/load-balancers/ in memory; test/conformance/load-balancers.conformance.ts
 * holds both to the same behaviour. Creates are idempotent by name, deletes of what is gone succeed.
 */
export interface LoadBalancers {
  findLoadBalancer(name: string): Promise<LoadBalancer | undefined>;
  createLoadBalancer(request: {
    name: string;
    scheme: 'internet-facing' | 'internal';
    subnetIds: readonly string[];
    securityGroupIds: readonly string[];
    tags: Tags;
  }): Promise<LoadBalancer>;
  deleteLoadBalancer(arn: string): Promise<void>;
  findTargetGroup(name: string): Promise<TargetGroup | undefined>;
  createTargetGroup(request: { name: string; vpcId: string; port: number; tags: Tags }): Promise<TargetGroup>;
  deleteTargetGroup(arn: string): Promise<void>;
  /**
   * Sets those of `attributes` whose value differs on the target group (others are left alone) and
   * returns their keys, sorted: called on every reconcile, so a crash between create and modify heals.
   */
  ensureTargetGroupAttributes(targetGroupArn: string, attributes: Readonly<Record<string, string>>): Promise<string[]>;
  /** Creates the TCP listener forwarding `port` to the target group unless it exists. */
  ensureListener(loadBalancerArn: string, port: number, targetGroupArn: string): Promise<void>;
  registerTarget(targetGroupArn: string, instanceId: string, port: number): Promise<void>;
  deregisterTarget(targetGroupArn: string, instanceId: string, port: number): Promise<void>;
  /** The registered instance ids, sorted (a draining target is no longer registered). */
  describeTargets(targetGroupArn: string): Promise<string[]>;
}
