/** MachineHealthCheck: accepted with a known top level and loose nested parts. */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { labelSelectorSchema } from '../common/selector.js';
import { baseStatusSchema, openRecord } from '../common/status.js';

export const machineHealthCheckSpecSchema = z.strictObject({
  clusterName: z.string().min(1).max(63),
  selector: labelSelectorSchema,
  checks: openRecord.optional(),
  remediation: openRecord.optional(),
});

export const machineHealthCheckSchema = z.strictObject({
  ...envelope,
  spec: machineHealthCheckSpecSchema,
  status: baseStatusSchema.optional(),
});

export type MachineHealthCheck = z.infer<typeof machineHealthCheckSchema>;
