/**
 * What the AWS provider's reconcilers may do in the account, as data (the CDK construct turns each
 * statement into IAM). Everything that creates a resource must tag it with capless's tag
 * (`aws:RequestTag`), everything that changes or deletes one needs that tag on it
 * (`ec2:ResourceTag`, `aws:ResourceTag`); only reads that support no resource-level permission use `*`.
 */

import type { ProviderPermission } from '../../provider-contract.js';
import { CAPLESS_MANAGED_TAG, CAPLESS_MANAGED_VALUE } from './aws-tags.js';

const REQUEST_TAGGED = { StringEquals: { [`aws:RequestTag/${CAPLESS_MANAGED_TAG}`]: CAPLESS_MANAGED_VALUE } } as const;
const EC2_RESOURCE_TAGGED = { StringEquals: { [`ec2:ResourceTag/${CAPLESS_MANAGED_TAG}`]: CAPLESS_MANAGED_VALUE } } as const;
const RESOURCE_TAGGED = { StringEquals: { [`aws:ResourceTag/${CAPLESS_MANAGED_TAG}`]: CAPLESS_MANAGED_VALUE } } as const;

const EC2_ANY = 'arn:aws:ec2:*:*:*';
const SECRETS = 'arn:aws:secretsmanager:*:*:secret:aws.cluster.x-k8s.io/*';

/** Reads EC2 authorises only on `*` (no resource-level permissions for Describe*). */
const EC2_READS: ProviderPermission = {
  actions: [
    'ec2:DescribeAvailabilityZones',
    'ec2:DescribeImages',
    'ec2:DescribeInstances',
    'ec2:DescribeInstanceTypes',
    'ec2:DescribeInternetGateways',
    'ec2:DescribeAddresses',
    'ec2:DescribeNatGateways',
    'ec2:DescribeNetworkInterfaces',
    'ec2:DescribeRouteTables',
    'ec2:DescribeSecurityGroups',
    'ec2:DescribeSubnets',
    'ec2:DescribeVpcs',
    'ec2:DescribeVpcAttribute',
    'ec2:DescribeVolumes',
  ],
  resources: ['*'],
};

/**
 * The ELBv2 actions shared/adapters/aws/elbv2/ sends, per reconciler (test/aws-wire records what it
 * sends against moto and compares). ELBv2's Describe* allow no resource-level permission either.
 */
export const ELB_CLUSTER_READS = [
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeListeners',
  'elasticloadbalancing:DescribeTags',
  'elasticloadbalancing:DescribeTargetGroupAttributes',
] as const;
export const ELB_MACHINE_READS = ['elasticloadbalancing:DescribeTargetHealth'] as const;

const ELB_LOAD_BALANCER = 'arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*';
const ELB_TARGET_GROUP = 'arn:aws:elasticloadbalancing:*:*:targetgroup/*/*';
const ELB_CREATES = ['CreateLoadBalancer', 'CreateTargetGroup'] as const;

/** Tags may be written only while creating a resource (tag-on-create), never onto someone else's. */
const TAG_ON_CREATE = (createActions: readonly string[]): ProviderPermission => ({
  actions: ['ec2:CreateTags'],
  resources: [EC2_ANY],
  conditions: { StringEquals: { 'ec2:CreateAction': createActions } },
});

export const AWS_MACHINE_PERMISSIONS: readonly ProviderPermission[] = [
  EC2_READS,
  { actions: ELB_MACHINE_READS, resources: ['*'] },
  // RunInstances authorises the new instance, volumes, ENIs and Spot request (must carry the tag) …
  {
    actions: ['ec2:RunInstances'],
    resources: ['arn:aws:ec2:*:*:instance/*', 'arn:aws:ec2:*:*:volume/*', 'arn:aws:ec2:*:*:network-interface/*', 'arn:aws:ec2:*:*:spot-instances-request/*'],
    conditions: REQUEST_TAGGED,
  },
  // … and the existing image, subnet, security groups, key pair and placement group it uses (not created, not tagged).
  {
    actions: ['ec2:RunInstances'],
    resources: ['arn:aws:ec2:*::image/*', 'arn:aws:ec2:*:*:subnet/*', 'arn:aws:ec2:*:*:security-group/*', 'arn:aws:ec2:*:*:key-pair/*', 'arn:aws:ec2:*:*:placement-group/*'],
  },
  TAG_ON_CREATE(['RunInstances']),
  { actions: ['ec2:TerminateInstances', 'ec2:ModifyInstanceAttribute', 'ec2:ModifyInstanceMetadataOptions'], resources: ['arn:aws:ec2:*:*:instance/*'], conditions: EC2_RESOURCE_TAGGED },
  // The security groups of a running instance's interfaces follow the AWSMachine's: only capless's
  // interfaces, with any group (the additional groups are the user's own).
  { actions: ['ec2:ModifyNetworkInterfaceAttribute'], resources: ['arn:aws:ec2:*:*:network-interface/*'], conditions: EC2_RESOURCE_TAGGED },
  { actions: ['ec2:ModifyNetworkInterfaceAttribute'], resources: ['arn:aws:ec2:*:*:security-group/*'] },
  // The additional tags of a running instance and its volumes follow the AWSMachine's; capless's own tag is not one of them.
  {
    actions: ['ec2:CreateTags', 'ec2:DeleteTags'],
    resources: ['arn:aws:ec2:*:*:instance/*', 'arn:aws:ec2:*:*:volume/*'],
    conditions: { ...EC2_RESOURCE_TAGGED, 'ForAllValues:StringNotEquals': { 'aws:TagKeys': [CAPLESS_MANAGED_TAG] } },
  },
  { actions: ['iam:PassRole'], resources: ['arn:aws:iam::*:role/*'], conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } } },
  { actions: ['secretsmanager:CreateSecret', 'secretsmanager:TagResource'], resources: [SECRETS], conditions: REQUEST_TAGGED },
  { actions: ['secretsmanager:DeleteSecret'], resources: [SECRETS], conditions: RESOURCE_TAGGED },
  {
    actions: ['elasticloadbalancing:RegisterTargets', 'elasticloadbalancing:DeregisterTargets'],
    resources: [ELB_TARGET_GROUP],
    conditions: RESOURCE_TAGGED,
  },
];

const NETWORK_CREATES = [
  'CreateVpc',
  'CreateSubnet',
  'CreateInternetGateway',
  'AllocateAddress',
  'CreateNatGateway',
  'CreateRouteTable',
  'CreateSecurityGroup',
] as const;

export const AWS_CLUSTER_PERMISSIONS: readonly ProviderPermission[] = [
  EC2_READS,
  { actions: ELB_CLUSTER_READS, resources: ['*'] },
  { actions: NETWORK_CREATES.map((a) => `ec2:${a}`), resources: [EC2_ANY], conditions: REQUEST_TAGGED },
  TAG_ON_CREATE(NETWORK_CREATES),
  {
    actions: [
      'ec2:ModifyVpcAttribute',
      'ec2:ModifySubnetAttribute',
      'ec2:AttachInternetGateway',
      'ec2:DetachInternetGateway',
      'ec2:CreateRoute',
      'ec2:AssociateRouteTable',
      'ec2:DisassociateRouteTable',
      'ec2:AuthorizeSecurityGroupIngress',
      'ec2:RevokeSecurityGroupIngress',
      'ec2:DeleteVpc',
      'ec2:DeleteSubnet',
      'ec2:DeleteInternetGateway',
      'ec2:DeleteNatGateway',
      'ec2:DeleteRouteTable',
      'ec2:DeleteSecurityGroup',
      'ec2:ReleaseAddress',
    ],
    resources: [EC2_ANY],
    conditions: EC2_RESOURCE_TAGGED,
  },
  // The control-plane load balancer and its target group are created carrying capless's tag …
  { actions: ELB_CREATES.map((a) => `elasticloadbalancing:${a}`), resources: [ELB_LOAD_BALANCER, ELB_TARGET_GROUP], conditions: REQUEST_TAGGED },
  // … which ELBv2 authorises as AddTags, allowed only as part of those creates.
  {
    actions: ['elasticloadbalancing:AddTags'],
    resources: [ELB_LOAD_BALANCER, ELB_TARGET_GROUP],
    conditions: { StringEquals: { 'elasticloadbalancing:CreateAction': ELB_CREATES, [`aws:RequestTag/${CAPLESS_MANAGED_TAG}`]: CAPLESS_MANAGED_VALUE } },
  },
  // The listener carries no tag of its own: CreateListener is authorised on the (tagged) load balancer.
  { actions: ['elasticloadbalancing:CreateListener'], resources: [ELB_LOAD_BALANCER], conditions: RESOURCE_TAGGED },
  // CAPA's target-group attributes, and deletion (deleting the load balancer deletes its listeners).
  {
    actions: ['elasticloadbalancing:ModifyTargetGroupAttributes', 'elasticloadbalancing:DeleteLoadBalancer', 'elasticloadbalancing:DeleteTargetGroup'],
    resources: [ELB_LOAD_BALANCER, ELB_TARGET_GROUP],
    conditions: RESOURCE_TAGGED,
  },
];

/** The template controller only reads: the instance type's capacity and the image's platform. */
export const AWS_MACHINE_TEMPLATE_PERMISSIONS: readonly ProviderPermission[] = [
  { actions: ['ec2:DescribeInstanceTypes', 'ec2:DescribeImages'], resources: ['*'] },
];
