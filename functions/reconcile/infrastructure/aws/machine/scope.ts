import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { AwsCloud } from '../../../../../shared/ports/aws-cloud.js';
import type { Instance } from '../../../../../shared/ports/ec2.js';
import type { ReconcileContext, Scope } from '../../../engine/skeleton/types.js';

export const AWS_MACHINE_FINALIZER = 'awsmachine.infrastructure.cluster.x-k8s.io';

/** CAPA's AWSMachine condition types. */
export const INSTANCE_READY = 'InstanceReady';
export const ELB_ATTACHED = 'ELBAttached';

export interface AwsMachineScope extends Scope {
  machine?: StoredObject;
  cluster?: StoredObject;
  awsCluster?: StoredObject;
  region?: string;
  cloud?: AwsCloud;
  /** The instance of this AWSMachine, once found or launched. */
  instance?: Instance;
  controlPlane: boolean;
  failure?: { reason: string; message: string };
}

export function createAwsMachineScope(ctx: ReconcileContext, object: StoredObject): AwsMachineScope {
  return { ctx, object, conditions: [], controlPlane: false };
}

/** Sets InstanceReady and the Ready summary together (CAPA's Ready summarises InstanceReady first). */
export function instanceCondition(s: AwsMachineScope, status: 'True' | 'False' | 'Unknown', reason: string, message?: string): void {
  const condition = { status, reason, ...(message ? { message } : {}) };
  s.conditions.push({ type: INSTANCE_READY, ...condition }, { type: 'Ready', ...condition });
}
