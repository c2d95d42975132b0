/**
 * The AWS provider in the stack, all derived from its one registration: its kinds get queues and
 * functions, the AWSMachine and AWSCluster functions get exactly the EC2 / ELB / Secrets Manager
 * permissions the provider declares, mutating EC2 actions only on capless-tagged resources, and
 * EventBridge's EC2 state-change notifications go to the shared work queue, for the AWSMachine reconciler.
 */

import { describe, expect, it } from 'vitest';
import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';
import { valueAt } from '../../shared/contracts/json.js';
import { AWS_RECONCILED_KINDS } from '../../shared/contracts/providers/aws/aws-provider.js';
import { synthStack } from './support/synth-stack.js';
import { type FunctionPolicy, functionPolicies, referencedId } from './support/template-reading.js';

const { template } = synthStack();
const functions = functionPolicies(template);

function fn(serviceName: string): FunctionPolicy {
  const found = functions.find((f) => f.serviceName === serviceName);
  if (!found) throw new Error(`no function ${serviceName}`);
  return found;
}

const READ_ONLY = /^(ec2|elasticloadbalancing):Describe/;
const TAG_CONDITION_KEYS = ['aws:RequestTag/capless.io/managed', 'ec2:ResourceTag/capless.io/managed', 'aws:ResourceTag/capless.io/managed', 'ec2:CreateAction'];

function conditionKeys(condition: unknown): string[] {
  const operators = typeof condition === 'object' && condition !== null ? Object.values(condition) : [];
  return operators.flatMap((o) => (typeof o === 'object' && o !== null ? Object.keys(o) : []));
}

describe('AWS provider in the stack', () => {
  it.each(AWS_RECONCILED_KINDS.map((k) => [k.kind]))('%s is a reconciled kind with its own function', (kind) => {
    expect(RECONCILED_KINDS.map((k) => k.kind)).toContain(kind);
    expect(functions.map((f) => f.serviceName)).toContain(`capless-reconcile-${kind.toLowerCase()}`);
  });

  it.each(['capless-reconcile-awsmachine', 'capless-reconcile-awscluster'])('%s may mutate EC2 and ELB resources only under a capless tag condition', (service) => {
    const cloud = fn(service).statements.filter((s) => s.actions.some((a) => /^(ec2|elasticloadbalancing|secretsmanager):/.test(a)));
    expect(cloud.length).toBeGreaterThan(1);
    for (const statement of cloud) {
      // CDK merges the Describe* reads with other `*` statements (X-Ray): only the cloud actions count.
      if (statement.actions.filter((a) => /^(ec2|elasticloadbalancing|secretsmanager):/.test(a)).every((a) => READ_ONLY.test(a))) continue;
      const onInstanceLaunchInputs = statement.actions.includes('ec2:RunInstances') && statement.resources.every((r) => typeof r === 'string' && !/instance\/|volume\/|network-interface\//.test(r));
      if (onInstanceLaunchInputs) continue; // the image, subnet, groups and key a launch only uses
      const groupsAnInterfaceUses = statement.actions.every((a) => a === 'ec2:ModifyNetworkInterfaceAttribute') && statement.resources.every((r) => typeof r === 'string' && r.includes(':security-group/'));
      if (groupsAnInterfaceUses) continue; // the (user's) groups attached to capless's interfaces, not changed themselves
      expect(conditionKeys(statement.condition).some((k) => TAG_CONDITION_KEYS.includes(k)), JSON.stringify(statement)).toBe(true);
    }
  });

  it('lets the AWSMachine function launch only instances tagged by capless, and terminate only those', () => {
    const statements = fn('capless-reconcile-awsmachine').statements;
    const launch = statements.find((s) => s.actions.includes('ec2:RunInstances') && s.resources.some((r) => String(r).includes('instance/')));
    expect(valueAt(launch?.condition, 'StringEquals', 'aws:RequestTag/capless.io/managed')).toBe('true');
    const terminate = statements.find((s) => s.actions.includes('ec2:TerminateInstances'));
    expect(valueAt(terminate?.condition, 'StringEquals', 'ec2:ResourceTag/capless.io/managed')).toBe('true');
    // Retagging a running instance: only capless's instances, never capless's own tag.
    const retag = statements.find((s) => s.actions.includes('ec2:DeleteTags'));
    expect(retag?.actions).toEqual(expect.arrayContaining(['ec2:CreateTags', 'ec2:DeleteTags']));
    expect(valueAt(retag?.condition, 'StringEquals', 'ec2:ResourceTag/capless.io/managed')).toBe('true');
    expect(valueAt(retag?.condition, 'ForAllValues:StringNotEquals', 'aws:TagKeys')).toEqual(expect.arrayContaining(['capless.io/managed']));
    // Security groups of a running instance: only capless's interfaces are changed.
    const regroup = statements.find((s) => s.actions.includes('ec2:ModifyNetworkInterfaceAttribute') && s.resources.some((r) => String(r).includes('network-interface/')));
    expect(valueAt(regroup?.condition, 'StringEquals', 'ec2:ResourceTag/capless.io/managed')).toBe('true');
  });

  it.each([
    [
      'capless-reconcile-awscluster',
      [
        'AddTags',
        'CreateListener',
        'CreateLoadBalancer',
        'CreateTargetGroup',
        'DeleteLoadBalancer',
        'DeleteTargetGroup',
        'DescribeListeners',
        'DescribeLoadBalancers',
        'DescribeTags',
        'DescribeTargetGroupAttributes',
        'DescribeTargetGroups',
        'ModifyTargetGroupAttributes',
      ],
    ],
    ['capless-reconcile-awsmachine', ['DeregisterTargets', 'DescribeTargetHealth', 'RegisterTargets']],
  ])('%s gets exactly the ELBv2 actions its reconciler calls', (service, expected) => {
    const granted = fn(service).statements.flatMap((s) => s.actions).filter((a) => a.startsWith('elasticloadbalancing:'));
    expect([...new Set(granted)].sort()).toEqual(expected.map((a) => `elasticloadbalancing:${a}`));
  });

  it('lets the AWSCluster function tag ELBv2 resources only while creating them, and create a listener only on its own load balancer', () => {
    const statements = fn('capless-reconcile-awscluster').statements;
    const addTags = statements.find((s) => s.actions.includes('elasticloadbalancing:AddTags'));
    expect(valueAt(addTags?.condition, 'StringEquals', 'elasticloadbalancing:CreateAction')).toEqual(['CreateLoadBalancer', 'CreateTargetGroup']);
    expect(valueAt(addTags?.condition, 'StringEquals', 'aws:RequestTag/capless.io/managed')).toBe('true');
    const listener = statements.find((s) => s.actions.includes('elasticloadbalancing:CreateListener'));
    expect(listener?.resources).toEqual(['arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*']);
    expect(valueAt(listener?.condition, 'StringEquals', 'aws:ResourceTag/capless.io/managed')).toBe('true');
  });

  it('gives the AWSMachineTemplate function the two EC2 reads it makes, on `*` (Describe* has no resource-level permission), and nothing else in the account', () => {
    const inAccount = (action: string) => /^(ec2|elasticloadbalancing|secretsmanager|iam):/.test(action);
    const statements = fn('capless-reconcile-awsmachinetemplate').statements.filter((s) => s.actions.some(inAccount));
    expect(statements.flatMap((s) => s.actions.filter(inAccount)).sort()).toEqual(['ec2:DescribeImages', 'ec2:DescribeInstanceTypes']);
    for (const statement of statements) expect({ resources: statement.resources, effect: statement.effect, condition: statement.condition }).toEqual({ resources: ['*'], effect: 'Allow', condition: undefined });
  });

  it('gives no other reconciler any EC2 or ELB permission', () => {
    const withCloud = ['capless-reconcile-awsmachine', 'capless-reconcile-awscluster', 'capless-reconcile-awsmachinetemplate'];
    const others = functions.filter((f) => !withCloud.includes(f.serviceName));
    for (const other of others) expect(other.statements.flatMap((s) => s.actions).filter((a) => /^(ec2|elasticloadbalancing):/.test(a)), other.serviceName).toEqual([]);
  });

  it('routes EC2 instance state-change notifications to the shared work queue, naming the AWSMachine kind', () => {
    const rules = Object.values(template.findResources('AWS::Events::Rule'));
    const ec2Rules = rules.filter((r) => JSON.stringify(valueAt(r, 'Properties', 'EventPattern', 'source')) === '["aws.ec2"]');
    expect(ec2Rules).toHaveLength(1);
    const [rule] = ec2Rules;
    expect(valueAt(rule, 'Properties', 'EventPattern', 'detail-type')).toEqual(['EC2 Instance State-change Notification']);
    const targets = valueAt(rule, 'Properties', 'Targets');
    const arn = Array.isArray(targets) ? valueAt(targets[0], 'Arn') : undefined;
    expect(referencedId(arn)).toMatch(/^ControlPlaneQueuesSharedWorkQueue/);
    const input = String(Array.isArray(targets) ? valueAt(targets[0], 'InputTransformer', 'InputTemplate') : '');
    expect(input).toContain('cloudEvent');
    expect(input).toContain('"kind":"infrastructure.cluster.x-k8s.io/AWSMachine"');
  });
});
