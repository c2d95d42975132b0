/** MachineHealthCheck: accepted with a known top level and loose nested parts. */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { labelSelectorSchema } from '../common/selector.js';
import { int32 } from '../common/names.js';
import { baseStatusSchema } from '../common/status.js';
import { healthCheckChecksSchema, healthCheckRemediationSchema } from './health-check.js';

export const machineHealthCheckSpecSchema = z.strictObject({
  clusterName: z.string().min(1).max(63),
  selector: labelSelectorSchema,
  checks: healthCheckChecksSchema.optional(),
  remediation: healthCheckRemediationSchema.optional(),
});

export const machineHealthCheckSchema = z.strictObject({
  ...envelope,
  spec: machineHealthCheckSpecSchema,
  status: baseStatusSchema
    .extend({
      expectedMachines: int32().min(0).optional(),
      currentHealthy: int32().min(0).optional(),
      remediationsAllowed: int32().min(0).optional(),
    })
    .optional(),
});

export type MachineHealthCheck = z.infer<typeof machineHealthCheckSchema>;
