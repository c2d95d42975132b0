/**
 * Cluster API Provider AWS as capless serves it: one registration naming its kinds, the contract
 * (v1beta1, as CAPA v2.11 declares in metadata.yaml), the kinds it reconciles, the IAM permissions
 * their functions need and the cloud events routed to them. The API catalog, the router, the CDK
 * queues, functions and IAM all derive from this (test/unit/providers/aws-registration.test.ts).
 */

import type { ReconciledKindDeclaration } from '../../provider-contract.js';
import type { ProviderDescriptor } from '../builtin-providers.js';
import { AWS_GROUP, AWS_KINDS } from './aws-kinds.js';
import { AWS_CLUSTER_PERMISSIONS, AWS_MACHINE_PERMISSIONS, AWS_MACHINE_TEMPLATE_PERMISSIONS } from './aws-permissions.js';

/** EC2's state-change notification (EC2 User Guide), routed to the AWSMachine queue. */
export const EC2_STATE_CHANGE_PATTERN = {
  source: ['aws.ec2'],
  'detail-type': ['EC2 Instance State-change Notification'],
} as const;

export const AWS_PROVIDER: ProviderDescriptor = {
  name: 'aws',
  type: 'InfrastructureProvider',
  kinds: [...AWS_KINDS],
  contracts: [
    { group: AWS_GROUP, kind: 'AWSCluster', role: 'InfrastructureCluster', contractVersion: 'v1beta1', templateKind: 'AWSClusterTemplate' },
    { group: AWS_GROUP, kind: 'AWSMachine', role: 'InfrastructureMachine', contractVersion: 'v1beta1', templateKind: 'AWSMachineTemplate' },
  ],
};

export const AWS_RECONCILED_KINDS: readonly ReconciledKindDeclaration[] = [
  { group: AWS_GROUP, kind: 'AWSCluster', needsSecrets: false, permissions: AWS_CLUSTER_PERMISSIONS },
  {
    group: AWS_GROUP,
    kind: 'AWSMachine',
    // Reads the bootstrap data Secret to hand it to the instance.
    needsSecrets: true,
    permissions: AWS_MACHINE_PERMISSIONS,
    eventRules: [
      {
        id: 'Ec2StateChange',
        description: 'EC2 instance state changes reconcile the AWSMachine that owns the instance',
        eventPattern: EC2_STATE_CHANGE_PATTERN,
      },
    ],
  },
  // Fills in status.capacity and status.nodeInfo for the cluster autoscaler's scale from zero.
  { group: AWS_GROUP, kind: 'AWSMachineTemplate', needsSecrets: false, permissions: AWS_MACHINE_TEMPLATE_PERMISSIONS },
];
