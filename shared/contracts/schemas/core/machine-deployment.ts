import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { int32, intOrString } from '../common/names.js';
import { labelSelectorSchema } from '../common/selector.js';
import { deletionOrderSchema, machineNamingSchema, machineTemplateSpecSchema } from './machine-set.js';
import { replicaStatusSchema } from './replica-status.js';

export const machineDeploymentStrategySchema = z.strictObject({
  type: z.enum(['RollingUpdate', 'OnDelete']),
  rollingUpdate: z
    .strictObject({
      maxSurge: intOrString.optional(),
      maxUnavailable: intOrString.optional(),
    })
    .optional(),
});

export const machineDeploymentSpecSchema = z.strictObject({
  clusterName: z.string().min(1).max(63),
  replicas: int32().min(0).optional(),
  // Optional here: admission defaults an empty selector (CAPI's mutating webhook runs before schema validation).
  selector: labelSelectorSchema.default({}),
  template: machineTemplateSpecSchema,
  rollout: z
    .strictObject({
      after: z.string().optional(),
      strategy: machineDeploymentStrategySchema.optional(),
    })
    .optional(),
  remediation: z.strictObject({ maxInFlight: intOrString.optional() }).optional(),
  deletion: z.strictObject({ order: deletionOrderSchema.optional() }).optional(),
  machineNaming: machineNamingSchema.optional(),
  paused: z.boolean().optional(),
});

export const machineDeploymentSchema = z.strictObject({
  ...envelope,
  spec: machineDeploymentSpecSchema,
  status: replicaStatusSchema.optional(),
});

export type MachineDeployment = z.infer<typeof machineDeploymentSchema>;
export type MachineDeploymentStrategy = z.infer<typeof machineDeploymentStrategySchema>;
