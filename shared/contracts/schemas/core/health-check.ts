/**
 * Parts of Cluster API that are accepted loosely (extra fields kept) but whose `format: int32`
 * integers are still bounded: MachineHealthCheck checks and remediation, and the same blocks in
 * Cluster topology; topology deletion timeouts.
 */

import { z } from 'zod';
import { int32, intOrString } from '../common/names.js';

const timeoutSeconds = () => int32().min(0).optional();

const unhealthyConditionSchema = z.looseObject({ timeoutSeconds: timeoutSeconds() });

export const healthCheckChecksSchema = z.looseObject({
  nodeStartupTimeoutSeconds: timeoutSeconds(),
  unhealthyNodeConditions: z.array(unhealthyConditionSchema).optional(),
  unhealthyMachineConditions: z.array(unhealthyConditionSchema).optional(),
});

export const healthCheckRemediationSchema = z.looseObject({
  maxInFlight: intOrString.optional(),
  triggerIf: z.looseObject({ unhealthyLessThanOrEqualTo: intOrString.optional(), unhealthyInRange: z.string().min(1).max(32).regex(/^\[[0-9]+-[0-9]+\]$/).optional() }).optional(),
});

/** `deletion` of a topology control plane or worker class (MD adds `order`). */
export const topologyDeletionSchema = z.looseObject({
  nodeDrainTimeoutSeconds: timeoutSeconds(),
  nodeVolumeDetachTimeoutSeconds: timeoutSeconds(),
  nodeDeletionTimeoutSeconds: timeoutSeconds(),
});

export const topologyHealthCheckSchema = z.looseObject({
  checks: healthCheckChecksSchema.optional(),
  remediation: healthCheckRemediationSchema.optional(),
});
