/** `MachineSpec`, shared by Machine and the templates of MachineSet / MachineDeployment. */

import { z } from 'zod';
import { int32 } from '../common/names.js';
import { contractRefSchema } from '../common/references.js';

export const readinessGateSchema = z.strictObject({
  conditionType: z.string().min(1).max(316),
  polarity: z.enum(['Positive', 'Negative']).optional(),
});

export const machineTaintSchema = z.strictObject({
  key: z.string().min(1).max(317),
  value: z.string().max(63).optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  propagation: z.enum(['Always', 'OnInitialization']),
});

export const machineDeletionSchema = z.strictObject({
  nodeDrainTimeoutSeconds: int32().min(0).optional(),
  nodeVolumeDetachTimeoutSeconds: int32().min(0).optional(),
  nodeDeletionTimeoutSeconds: int32().min(0).optional(),
});

export const bootstrapSchema = z.strictObject({
  configRef: contractRefSchema.optional(),
  dataSecretName: z.string().min(1).max(253).optional(),
});

export const machineSpecSchema = z.strictObject({
  clusterName: z.string().min(1).max(63),
  bootstrap: bootstrapSchema,
  infrastructureRef: contractRefSchema,
  version: z.string().max(256).optional(),
  providerID: z.string().max(512).optional(),
  failureDomain: z.string().max(256).optional(),
  minReadySeconds: int32().min(0).optional(),
  readinessGates: z.array(readinessGateSchema).optional(),
  deletion: machineDeletionSchema.optional(),
  taints: z.array(machineTaintSchema).optional(),
});

export type MachineSpec = z.infer<typeof machineSpecSchema>;
