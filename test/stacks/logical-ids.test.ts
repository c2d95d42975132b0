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
  'AWSMachineTemplate',
  'ExtensionConfig',
  'ClusterResourceSet',
];

/**
 * Per-kind dead-letter queues at the construct path ADR 0003's stack gave them
 * (`ControlPlane/Queues/<Kind>/DeadLetterQueue`), hence the logical IDs it deployed.
 */
const PINNED_DEAD_LETTER_QUEUES = [
  'ControlPlaneQueuesClusterDeadLetterQueue80C0FDB2',
  'ControlPlaneQueuesMachineDeadLetterQueue395FC0DB',
  'ControlPlaneQueuesKubeadmConfigDeadLetterQueue620680D4',
  'ControlPlaneQueuesKubeadmControlPlaneDeadLetterQueue4C3A9F14',
  'ControlPlaneQueuesAWSMachineDeadLetterQueue329FCD4F',
];

describe('stateful logical IDs', () => {
  it('pins the table', () => {
    // The watch log (ADR 0080) is an hour of history, destroyed with the stack: nothing to pin.
    expect(logicalIds(template, 'AWS::DynamoDB::Table').filter((id) => !id.startsWith('ControlPlaneWatchLog'))).toEqual(['ControlPlaneStateTable4E77BA39']);
  });

  it('pins the KMS key', () => {
    expect(logicalIds(template, 'AWS::KMS::Key')).toEqual(['ControlPlaneStateKey73F540D7']);
  });

  it('pins every queue and dead-letter queue', () => {
    const ids = logicalIds(template, 'AWS::SQS::Queue');
    expect(ids.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(
      [
        'ControlPlaneQueuesSharedWorkQueue',
        'ControlPlaneQueuesSharedWorkDeadLetterQueue',
        ...KIND_NAMES.map((kind) => `ControlPlaneQueues${kind}DeadLetterQueue`),
        'ControlPlaneStreamFailuresQueue',
      ].sort(),
    );
    expect(ids).toEqual(expect.arrayContaining(['ControlPlaneQueuesSharedWorkQueue3583EFBF', 'ControlPlaneQueuesSharedWorkDeadLetterQueue8BB4AC5B', 'ControlPlaneStreamFailuresQueueAE4351EA']));
  });

  it("keeps each kind's dead-letter queue where ADR 0003's topology had it, so its dead letters survive the move to the shared queue (ADR 0110)", () => {
    const ids = logicalIds(template, 'AWS::SQS::Queue');
    expect(ids).toEqual(expect.arrayContaining(PINNED_DEAD_LETTER_QUEUES));
  });
});
