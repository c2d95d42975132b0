/**
 * AWSMachineTemplate: CAPA's template controller fills in what the cluster autoscaler needs to
 * scale a node group from zero (Cluster API's opt-in autoscaling-from-zero proposal): the
 * capacity of the instance type and the node's architecture and operating system.
 */

import { recordAt, stringAt } from '../../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { AwsCloud } from '../../../../../shared/ports/aws-cloud.js';
import type { InstanceTypeInfo } from '../../../../../shared/ports/ec2.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';

export type Architecture = 'amd64' | 'arm64';
export type OperatingSystem = 'linux' | 'windows';

/** CAPA's `NodeInfo`. */
export interface NodeInfo {
  architecture?: Architecture;
  operatingSystem?: OperatingSystem;
}

export interface AwsMachineTemplateScope extends Scope {
  /** `spec.template.spec`: what every AWSMachine cloned from the template is. */
  machineSpec: Record<string, unknown>;
  cluster?: StoredObject;
  awsCluster?: StoredObject;
  cloud?: AwsCloud;
  instanceType?: InstanceTypeInfo;
  /** `status.capacity`: resource name → quantity; starts as stored. */
  capacity: Record<string, string>;
  /** `status.nodeInfo`; starts as stored. */
  nodeInfo?: NodeInfo;
}

export function createAwsMachineTemplateScope(ctx: ReconcileContext, object: StoredObject): AwsMachineTemplateScope {
  const capacity: Record<string, string> = {};
  for (const [name, quantity] of Object.entries(recordAt(object, 'status', 'capacity') ?? {})) {
    if (typeof quantity === 'string') capacity[name] = quantity;
  }
  const nodeInfo = storedNodeInfo(object);
  return { ctx, object, conditions: [], machineSpec: recordAt(object, 'spec', 'template', 'spec') ?? {}, capacity, ...(nodeInfo ? { nodeInfo } : {}) };
}

function storedNodeInfo(object: StoredObject): NodeInfo | undefined {
  const stored = recordAt(object, 'status', 'nodeInfo');
  if (!stored) return undefined;
  const architecture = stringAt(stored, 'architecture');
  const operatingSystem = stringAt(stored, 'operatingSystem');
  return {
    ...(architecture === 'amd64' || architecture === 'arm64' ? { architecture } : {}),
    ...(operatingSystem === 'linux' || operatingSystem === 'windows' ? { operatingSystem } : {}),
  };
}
