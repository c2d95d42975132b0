import { describe, expect, it } from 'vitest';
import { synthStack } from './support/synth-stack.js';
import { logicalIds } from './support/template-reading.js';

/**
 * The logical IDs of stateful resources are a contract: CloudFormation replaces a resource whose
 * ID changes, and a replaced table (or key) is data gone. A construct rename that changes one
 * of these must fail here; if it is truly intended, it needs a migration plan, not a new pin.
 */
const { template } = synthStack();

const KIND_NAMES = [
  'Cluster',
  'Machine',
  'MachineSet',
  'MachineDeployment',
  'KubeadmConfig',
  'KubeadmControlPlane',
  'InMemoryCluster',
  'InMemoryMachine',
  'MachineHealthCheck',
  'IPAddressClaim',
  'InClusterIPPool',
  'GlobalInClusterIPPool',
  'ClusterClass',
  'DevCluster',
  'DevMachine',
  'AWSCluster',
  'AWSMachine',
  'ExtensionConfig',
  'ClusterResourceSet',
];

describe('stateful logical IDs', () => {
  it('pins the table', () => {
    expect(logicalIds(template, 'AWS::DynamoDB::Table')).toEqual(['ControlPlaneStateTable4E77BA39']);
  });

  it('pins the KMS key', () => {
    expect(logicalIds(template, 'AWS::KMS::Key')).toEqual(['ControlPlaneStateKey73F540D7']);
  });

  it('pins every queue and dead-letter queue', () => {
    const ids = logicalIds(template, 'AWS::SQS::Queue');
    expect(ids.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(
      [
        ...KIND_NAMES.flatMap((kind) => [`ControlPlaneQueues${kind}Queue`, `ControlPlaneQueues${kind}DeadLetterQueue`]),
        'ControlPlaneStreamFailuresQueue',
      ].sort(),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        'ControlPlaneQueuesClusterQueue4213DDE7',
        'ControlPlaneQueuesMachineQueueE9D5A06B',
        'ControlPlaneQueuesKubeadmConfigQueue214F87E1',
        'ControlPlaneQueuesKubeadmControlPlaneQueueCF3DBEC1',
        'ControlPlaneStreamFailuresQueueAE4351EA',
      ]),
    );
  });
});
