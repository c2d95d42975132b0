/**
 * Security groups of the in-memory EC2, on top of its network: a group belongs to a VPC, its
 * name is unique there, and a group another group's rule or a live instance refers to cannot be
 * deleted (`DependencyViolation`), as on AWS.
 */

import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { Ec2SecurityGroups, IngressRule, Query, SecurityGroup } from '../../../ports/ec2.js';
import { select } from './filters.js';
import { ec2Error, InMemoryEc2Network } from './in-memory-network.js';

export class InMemoryEc2SecurityGroups extends InMemoryEc2Network implements Ec2SecurityGroups {
  async describeSecurityGroups(query: Query): Promise<SecurityGroup[]> {
    return select(
      this.securityGroups.values(),
      (g) => g.id,
      query,
      (g, name) => ({ 'vpc-id': [g.vpcId], 'group-name': [g.name], 'group-id': [g.id] })[name],
      'DescribeSecurityGroups',
      'InvalidGroup.NotFound',
    ).map((g) => structuredClone(g));
  }

  async createSecurityGroup(request: { vpcId: string; name: string; description: string; tags: Tags }): Promise<SecurityGroup> {
    this.vpc('CreateSecurityGroup', request.vpcId);
    if ([...this.securityGroups.values()].some((g) => g.vpcId === request.vpcId && g.name === request.name)) {
      throw ec2Error('CreateSecurityGroup', 'InvalidGroup.Duplicate', `The security group '${request.name}' already exists for VPC '${request.vpcId}'`);
    }
    const group: SecurityGroup = { id: this.ids.next('sg'), name: request.name, vpcId: request.vpcId, ingress: [], tags: { ...request.tags } };
    this.securityGroups.set(group.id, group);
    return structuredClone(group);
  }

  async authorizeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void> {
    const group = this.securityGroups.get(groupId);
    if (!group) throw ec2Error('AuthorizeSecurityGroupIngress', 'InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
    for (const rule of rules) {
      if (group.ingress.some((r) => JSON.stringify(r) === JSON.stringify(rule))) throw ec2Error('AuthorizeSecurityGroupIngress', 'InvalidPermission.Duplicate', 'the specified rule already exists');
    }
    group.ingress.push(...rules.map((r) => structuredClone(r)));
  }

  async revokeIngress(groupId: string, rules: readonly IngressRule[]): Promise<void> {
    const group = this.securityGroups.get(groupId);
    if (!group) throw ec2Error('RevokeSecurityGroupIngress', 'InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
    const revoked = new Set(rules.map((r) => JSON.stringify(r)));
    group.ingress = group.ingress.filter((r) => !revoked.has(JSON.stringify(r)));
  }

  async deleteSecurityGroup(groupId: string): Promise<void> {
    if (!this.securityGroups.has(groupId)) throw ec2Error('DeleteSecurityGroup', 'InvalidGroup.NotFound', `The security group '${groupId}' does not exist`);
    const referenced = [...this.securityGroups.values()].some((g) => g.id !== groupId && g.ingress.some((r) => r.sourceSecurityGroupIds?.includes(groupId)));
    if (referenced || this.securityGroupInUse(groupId)) throw ec2Error('DeleteSecurityGroup', 'DependencyViolation', `resource ${groupId} has a dependent object`);
    this.securityGroups.delete(groupId);
  }

  /** A group referenced by a live instance (see the subclass). */
  protected securityGroupInUse(_groupId: string): boolean {
    return false;
  }
}
