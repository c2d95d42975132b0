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

/** Reads EC2 and ELB authorise only on `*` (no resource-level permissions for Describe*). */
const READS: ProviderPermission = {
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
    'elasticloadbalancing:DescribeLoadBalancers',
    'elasticloadbalancing:DescribeListeners',
    'elasticloadbalancing:DescribeTargetGroups',
    'elasticloadbalancing:DescribeTargetHealth',
    'elasticloadbalancing:DescribeTags',
  ],
  resources: ['*'],
};

/** Tags may be written only while creating a resource (tag-on-create), never onto someone else's. */
const TAG_ON_CREATE = (createActions: readonly string[]): ProviderPermission => ({
  actions: ['ec2:CreateTags'],
  resources: [EC2_ANY],
  conditions: { StringEquals: { 'ec2:CreateAction': createActions } },
});

export const AWS_MACHINE_PERMISSIONS: readonly ProviderPermission[] = [
  READS,
  // RunInstances authorises the new instance, volumes and ENIs (must carry the tag) …
  {
    actions: ['ec2:RunInstances'],
    resources: ['arn:aws:ec2:*:*:instance/*', 'arn:aws:ec2:*:*:volume/*', 'arn:aws:ec2:*:*:network-interface/*'],
    conditions: REQUEST_TAGGED,
  },
  // … and the existing image, subnet, security groups and key pair it uses (not created, not tagged).
  {
    actions: ['ec2:RunInstances'],
    resources: ['arn:aws:ec2:*::image/*', 'arn:aws:ec2:*:*:subnet/*', 'arn:aws:ec2:*:*:security-group/*', 'arn:aws:ec2:*:*:key-pair/*'],
  },
  TAG_ON_CREATE(['RunInstances']),
  { actions: ['ec2:TerminateInstances', 'ec2:ModifyInstanceAttribute'], resources: ['arn:aws:ec2:*:*:instance/*'], conditions: EC2_RESOURCE_TAGGED },
  { actions: ['iam:PassRole'], resources: ['arn:aws:iam::*:role/*'], conditions: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } } },
  { actions: ['secretsmanager:CreateSecret', 'secretsmanager:TagResource'], resources: [SECRETS], conditions: REQUEST_TAGGED },
  { actions: ['secretsmanager:DeleteSecret'], resources: [SECRETS], conditions: RESOURCE_TAGGED },
  {
    actions: ['elasticloadbalancing:RegisterTargets', 'elasticloadbalancing:DeregisterTargets'],
    resources: ['arn:aws:elasticloadbalancing:*:*:targetgroup/*/*'],
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
  READS,
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
  {
    actions: [
      'elasticloadbalancing:CreateLoadBalancer',
      'elasticloadbalancing:CreateTargetGroup',
      'elasticloadbalancing:CreateListener',
      'elasticloadbalancing:AddTags',
    ],
    resources: ['arn:aws:elasticloadbalancing:*:*:*'],
    conditions: REQUEST_TAGGED,
  },
  {
    actions: [
      'elasticloadbalancing:ModifyTargetGroupAttributes',
      'elasticloadbalancing:ModifyLoadBalancerAttributes',
      'elasticloadbalancing:DeleteLoadBalancer',
      'elasticloadbalancing:DeleteTargetGroup',
      'elasticloadbalancing:DeleteListener',
    ],
    resources: ['arn:aws:elasticloadbalancing:*:*:*'],
    conditions: RESOURCE_TAGGED,
  },
];
